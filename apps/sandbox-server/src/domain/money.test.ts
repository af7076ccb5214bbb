import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_VALUE } from '@switchyard/contract';
import { acceptedUnits } from '../test-support/money-arbitraries.js';
import { MAX_UNITS, fromUnits, toUnits } from './money.js';

/** The decimal text of `units` ten-thousandths, with integers only. */
const decimalText = (units: number) => {
  const big = BigInt(units);
  const fraction = (big % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return `${big / 10_000n}${fraction ? `.${fraction}` : ''}`;
};

describe('money units', () => {
  it('keeps every accepted amount a safe integer, with room for sums of 90 of them', () => {
    expect(MAX_UNITS).toBe(99_999_999_990_000);
    expect(Number.isSafeInteger(MAX_UNITS * 90)).toBe(true);
  });

  it('converts every accepted amount to units and back exactly, and writes it as its exact decimal', () => {
    fc.assert(
      fc.property(acceptedUnits(), (units) => {
        const major = JSON.parse(decimalText(units)) as number;
        expect(toUnits(major)).toBe(units);
        expect(fromUnits(units)).toBe(major);
        expect(JSON.stringify(fromUnits(units))).toBe(decimalText(units));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([MAX_AMOUNT_VALUE + 0.0001, 1e12, Number('9007199254740993'), Number.MAX_VALUE, 0.00001, -1, Number.NaN])('refuses to round %s', (major) => {
    expect(() => toUnits(major)).toThrow(RangeError);
  });
});
