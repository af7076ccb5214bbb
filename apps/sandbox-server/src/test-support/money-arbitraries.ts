import fc from 'fast-check';
import { MAX_UNITS } from '../domain/money.js';

/** Any unit count of an amount the API accepts (0.0001 to MAX_AMOUNT_VALUE), biased to the edges. */
export const acceptedUnits = (min = 1): fc.Arbitrary<number> => fc.integer({ min, max: MAX_UNITS });

/**
 * A total and up to `maxParts` partial amounts that add up to less than it (the remainder is
 * left for a final "the rest" step): the distinct cut points of the total, sorted.
 */
export function totalWithParts(maxParts = 6): fc.Arbitrary<{ total: number; parts: number[] }> {
  return acceptedUnits(2).chain((total) =>
    fc.uniqueArray(fc.integer({ min: 1, max: total - 1 }), { maxLength: maxParts }).map((cuts) => {
      const sorted = [...cuts].sort((a, b) => a - b);
      return { total, parts: sorted.map((cut, i) => cut - (sorted[i - 1] ?? 0)) };
    }),
  );
}
