import { MAX_AMOUNT_VALUE } from '@switchyard/contract';

/**
 * Money is kept as integer units of 0.0001 of the major unit, so sums and comparisons are exact:
 * three partial refunds of 33.33 on 99.99 leave exactly 0.
 *
 * Exactness holds for every value the contract accepts: amounts are at most MAX_AMOUNT_VALUE,
 * which is MAX_UNITS units, about 1/90 of 2^53, and every sum the sandbox keeps (captured,
 * refunded, charged back, reversed) is capped by the one amount it is spent from. So a unit count
 * is always a safe integer, `toUnits` never rounds a value it is given and `fromUnits` gives back
 * the double whose shortest text is the exact decimal (docs/sandbox-payments.md, "Money").
 */
export const UNITS_PER_MAJOR = 10_000;

/** The largest unit count an accepted amount has. */
export const MAX_UNITS = MAX_AMOUNT_VALUE * UNITS_PER_MAJOR;

/**
 * Major units to units. Only values the contract accepts reach it; anything else is a bug, so it
 * throws instead of rounding, whatever called it.
 */
export function toUnits(major: number): number {
  const units = Math.round(major * UNITS_PER_MAJOR);
  if (!(units >= 0 && units <= MAX_UNITS) || fromUnits(units) !== major) {
    throw new RangeError(`${major} is not an amount the API accepts (0 to ${MAX_AMOUNT_VALUE} in steps of 0.0001)`);
  }
  return units;
}

export const fromUnits = (units: number): number => units / UNITS_PER_MAJOR;

const CURRENCY_BY_COUNTRY: Record<string, string> = { US: 'USD', GB: 'GBP', AU: 'AUD', CA: 'CAD', MX: 'MXN', BR: 'BRL', CO: 'COP', AR: 'ARS', CL: 'CLP', PE: 'PEN' };

/** The currency the sandbox uses for a country when the request names none (USD when it knows no better). */
export const currencyOfCountry = (country: string): string => CURRENCY_BY_COUNTRY[country] ?? 'USD';
