import { describe, expect, it } from 'vitest';
import { Amount, hasAtMostFourDecimals } from './money.js';

describe('amounts', () => {
  it.each([0.0001, 0.3, 99.99, 33.33, 1234567.1234, 1e21, 100])('%s is a multiple of 0.0001', (v) => expect(hasAtMostFourDecimals(v)).toBe(true));
  it.each([0.00001, 1.23456, 1e-7, Number.NaN, Number.POSITIVE_INFINITY])('%s is not', (v) => expect(hasAtMostFourDecimals(v)).toBe(false));
  it('requires a currency code and a positive value', () => {
    expect(Amount.safeParse({ currency: 'USD', value: 0.0001 }).success).toBe(true);
    expect(Amount.safeParse({ currency: 'usd', value: 1 }).success).toBe(false);
    expect(Amount.safeParse({ currency: 'USD', value: 0 }).success).toBe(false);
    expect(Amount.safeParse({ currency: 'USD', value: '1.00' }).success).toBe(false);
  });
});
