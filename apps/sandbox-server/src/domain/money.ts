/**
 * Money is kept as integer units of 0.0001 of the major unit, so sums and comparisons are exact:
 * three partial refunds of 33.33 on 99.99 leave exactly 0.
 */
export const UNITS_PER_MAJOR = 10_000;

export const toUnits = (major: number): number => Math.round(major * UNITS_PER_MAJOR);
export const fromUnits = (units: number): number => units / UNITS_PER_MAJOR;
