import { describe, it } from 'vitest';
import { expectAccepted, expectRejectedAt } from '../test-support/rules.js';
import { Phone, phone } from './shapes.js';

/** Upstream bounds country_code by length (MAX 3 on most pages, MAX 5 on payment links), `+` included. */
describe('phone', () => {
  it('accepts a country_code with a leading + within 3 characters (Create Payment, customer_payer.phone)', () => {
    expectAccepted(Phone, { country_code: '+57', number: '3001234567' });
    expectAccepted(Phone, { country_code: '598', number: '91234567' });
  });
  it('rejects a country_code longer than 3 characters', () => expectRejectedAt(Phone, { country_code: '+598', number: '91234567' }, 'country_code'));
  it('accepts up to 5 characters where upstream allows them (Create Payment Link, customer_payer.phone)', () =>
    expectAccepted(phone(5), { country_code: '+1684', number: '6331234' }));
  it('rejects a country_code that is not digits', () => expectRejectedAt(Phone, { country_code: '5+7', number: '3001234567' }, 'country_code'));
  it('rejects an empty country_code', () => expectRejectedAt(Phone, { country_code: '', number: '3001234567' }, 'country_code'));
});
