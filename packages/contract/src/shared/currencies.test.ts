import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CreateRecipientBody, SplitConfiguration } from '../marketplace/schemas.js';
import { fixtures } from '../fixtures/index.js';
import { set } from '../test-support/rules.js';
import { describeIssues } from '../validation.js';
import { ISO_CURRENCIES, NON_CURRENCY_CODES, isIsoCurrency } from './currencies.js';
import { Amount, Currency } from './money.js';

/** What the contract answers for `currency` in an amount, as the sandbox words it: the messages, or [] when accepted. */
const messagesFor = (currency: string): string[] => {
  const parsed = Amount.safeParse({ currency, value: 1 });
  return parsed.success ? [] : describeIssues(parsed.error, 'body');
};

// Upstream describes every currency field as "MAX 3; MIN 3; ISO 4217" and refers to its country
// reference for "a full list of currency codes" (Create Payment, Create Checkout Session,
// Create Payment Link, ...): production refuses a code that is no currency, so the contract
// does too (docs/contract-vs-upstream.md, "Currencies").
describe('ISO 4217 currency codes', () => {
  it("split ISO 4217 List One's 178 codes into 155 currencies and 23 codes of something else", () => {
    expect(ISO_CURRENCIES).toHaveLength(155);
    expect(Object.keys(NON_CURRENCY_CODES)).toHaveLength(23);
    expect([...ISO_CURRENCIES].sort()).toEqual([...ISO_CURRENCIES]);
    for (const code of [...ISO_CURRENCIES, ...Object.keys(NON_CURRENCY_CODES)]) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(ISO_CURRENCIES.filter((code) => Object.hasOwn(NON_CURRENCY_CODES, code))).toEqual([]);
  });

  it('accepts every currency of the list', () => {
    for (const code of ISO_CURRENCIES) expect(messagesFor(code), code).toEqual([]);
  });

  it('refuses a code of the right shape that is no currency, naming it in one message', () => {
    expect(messagesFor('XYZ')).toEqual(['body.currency: must be an ISO 4217 currency code; "XYZ" is not one']);
  });

  // Withdrawn from List One: ANG (for XCG, 2025), BGN (for the euro, 2026), CUC, HRK, SLL (for SLE), ZWL (for ZWG).
  it.each(['ANG', 'BGN', 'CUC', 'HRK', 'SLL', 'ZWL'])('refuses %s, a currency ISO 4217 has withdrawn', (code) => {
    expect(messagesFor(code)).toEqual([`body.currency: must be an ISO 4217 currency code; "${code}" is not one`]);
  });

  it.each([
    ['XAU', 'gold'],
    ['XDR', "the IMF's special drawing right"],
    ['XTS', 'testing'],
    ['XXX', 'transactions where no currency is involved'],
    ['CLF', "a fund (Chile's Unidad de Fomento)"],
    ['UYW', "an indexed unit (Uruguay's Unidad Previsional)"],
  ])("refuses %s, saying it is ISO 4217's code for %s", (code, meaning) => {
    expect(messagesFor(code)).toEqual([`body.currency: must be an ISO 4217 currency code; "${code}" is ISO 4217's code for ${meaning}, not a currency`]);
  });

  it.each(['usd', 'US', 'USDT', '', 'U$D'])('refuses %j, of the wrong shape, with the shape message alone', (code) => {
    expect(messagesFor(code)).toEqual(['body.currency: must be an ISO 4217 currency code (3 upper-case letters)']);
  });

  it('accepts three upper-case letters exactly when they are a currency of the list', () => {
    const letters = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    fc.assert(
      fc.property(fc.tuple(letters, letters, letters), (chars) => {
        const code = chars.join('');
        expect(Currency.safeParse(code).success).toBe(isIsoCurrency(code));
      }),
      { numRuns: 2000 },
    );
  });

  // The two marketplace currency fields repeated the pattern before; they use the shared check now.
  it('holds for the currencies of a recipient: its bank and its split configuration', () => {
    const recipient = set(fixtures.createRecipient(), ['withdrawal_methods', 'bank', 'currency'], 'XYZ');
    const bank = CreateRecipientBody.safeParse(recipient);
    expect(bank.success ? [] : describeIssues(bank.error, 'body')).toEqual(['body.withdrawal_methods.bank.currency: must be an ISO 4217 currency code; "XYZ" is not one']);
    const split = SplitConfiguration.safeParse({ calculation_type: 'PERCENTAGE', percentage: 10, currency: 'XTS' });
    expect(split.success ? [] : describeIssues(split.error, 'body')).toEqual([`body.currency: must be an ISO 4217 currency code; "XTS" is ISO 4217's code for testing, not a currency`]);
  });
});
