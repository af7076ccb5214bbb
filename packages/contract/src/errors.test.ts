import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isServerFault, STATUS_OF } from './errors.js';

describe('isServerFault', () => {
  it('is true exactly for the codes answered 5xx, which must leave an idempotency key usable', () => {
    const faults = Object.values(ERROR_CODES)
      .flat()
      .filter((code) => isServerFault(code));
    expect(faults.sort()).toEqual(['INTERNAL_ERROR', 'PROVIDER_INTERNAL_ERROR']);
    expect(faults.every((code) => STATUS_OF[code] >= 500)).toBe(true);
  });
});
