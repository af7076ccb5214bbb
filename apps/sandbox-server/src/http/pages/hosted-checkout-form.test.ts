import { describe, expect, it } from 'vitest';
import { parseExpiry, readCheckoutForm } from './hosted-checkout-form.js';

const ATTEMPT = '0b6a2c1e-4f3d-4a5b-9c8d-7e6f5a4b3c2d';
const card = { attempt: ATTEMPT, method: 'CARD', card_number: '4111 1111 1111 1111', holder_name: 'Ada Lovelace', expiry: '11 / 30', security_code: '123' };

describe('the checkout form', () => {
  it('reads a card, with spaces in the number and a two-digit year', () => {
    expect(readCheckoutForm(card)).toEqual({
      ok: true,
      attempt: ATTEMPT,
      choice: { type: 'CARD', card: { number: '4111111111111111', expiration_month: 11, expiration_year: 2030, security_code: '123', holder_name: 'Ada Lovelace' } },
    });
  });

  it('reads another method from its button alone', () => {
    expect(readCheckoutForm({ attempt: ATTEMPT, method: 'PIX' })).toEqual({ ok: true, attempt: ATTEMPT, choice: { type: 'PIX' } });
  });

  it('names every mistake, and keeps only what may be shown again', () => {
    const form = readCheckoutForm({ ...card, attempt: 'x', card_number: '41', expiry: '13/30', security_code: '1' });
    expect(form.ok).toBe(false);
    if (form.ok) return;
    expect(form.errors.map((e) => e.split(':')[0])).toEqual(['The form is missing its payment attempt; reload the page and pay again.', 'Card number', 'Expiry date', 'Security code']);
    expect(form.kept).toEqual({ holder_name: 'Ada Lovelace', expiry: '13/30' });
    expect(JSON.stringify(form)).not.toMatch(/"41"|"1"/);
  });

  // The API takes such a number and declines the payment; the page checks it first, as a payment form does.
  it('names a number that fails the Luhn check as a card number mistake, never echoing it', () => {
    const form = readCheckoutForm({ ...card, card_number: '4111 1111 1111 1112' });
    expect(form).toMatchObject({ ok: false, errors: [expect.stringMatching(/^Card number: .*Luhn/)] });
    expect(JSON.stringify(form)).not.toContain('4111111111111112');
  });

  it('refuses a body that is not a form, and a method that is no method name', () => {
    expect(readCheckoutForm(undefined)).toMatchObject({ ok: false, errors: expect.arrayContaining(['Choose a payment method.']) });
    expect(readCheckoutForm({ attempt: ATTEMPT, method: '<b>' })).toMatchObject({ ok: false, errors: ['Choose a payment method.'] });
  });

  it('parses MM/YY and MM/YYYY expiries, and nothing else', () => {
    expect(['1/28', '12/2031', '00/28', '13/28', '12-28', '12/123'].map(parseExpiry)).toEqual([{ month: 1, year: 2028 }, { month: 12, year: 2031 }, undefined, undefined, undefined, undefined]);
  });
});
