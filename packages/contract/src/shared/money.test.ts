import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeIssues } from '../validation.js';
import { Amount, MAX_AMOUNT_VALUE, hasAtMostFourDecimals } from './money.js';

/** The decimal text of `units` ten-thousandths, built with integers only (no floating point). */
const decimalText = (units: bigint) => {
  const fraction = (units % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return `${units / 10_000n}${fraction ? `.${fraction}` : ''}`;
};
const MAX_UNITS = BigInt(MAX_AMOUNT_VALUE) * 10_000n;

describe('amounts', () => {
  it.each([0.0001, 0.3, 99.99, 33.33, 1234567.1234, 1e21, 100])('%s is a multiple of 0.0001', (v) => expect(hasAtMostFourDecimals(v)).toBe(true));
  it.each([0.00001, 1.23456, 1e-7, Number.NaN, Number.POSITIVE_INFINITY])('%s is not', (v) => expect(hasAtMostFourDecimals(v)).toBe(false));
  it('requires a currency code and a positive value', () => {
    expect(Amount.safeParse({ currency: 'USD', value: 0.0001 }).success).toBe(true);
    expect(Amount.safeParse({ currency: 'usd', value: 1 }).success).toBe(false);
    expect(Amount.safeParse({ currency: 'USD', value: 0 }).success).toBe(false);
    expect(Amount.safeParse({ currency: 'USD', value: '1.00' }).success).toBe(false);
  });

  // The bound is upstream's stated range for an amount (Create Payment, cardholder_amount:
  // "Range: 0.0001 – 9,999,999,999"); above it the unit count would no longer be exact in sums.
  it('accepts up to 9,999,999,999 and refuses more, naming the field', () => {
    expect(MAX_AMOUNT_VALUE).toBe(9_999_999_999);
    expect(Amount.safeParse({ currency: 'USD', value: MAX_AMOUNT_VALUE }).success).toBe(true);
    // 9007199254740993 as a JSON parser reads it: already rounded to 2^53, and still refused.
    for (const value of [MAX_AMOUNT_VALUE + 0.0001, 1e12, Number('9007199254740993'), Number.MAX_VALUE]) {
      const parsed = Amount.safeParse({ currency: 'USD', value });
      expect(parsed.success).toBe(false);
      if (!parsed.success) expect(describeIssues(parsed.error, 'body')).toContain(`body.value: must be at most ${MAX_AMOUNT_VALUE}`);
    }
  });

  it('accepts every multiple of 0.0001 in range, and its JSON text is the exact decimal', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_UNITS }), (units) => {
        const text = decimalText(units);
        const value = JSON.parse(text) as number;
        expect(Amount.safeParse({ currency: 'EUR', value }).success).toBe(true);
        expect(JSON.stringify(value)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
