import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration-text.js';

describe('formatDuration', () => {
  it('keeps one decimal below 10 ms, whole milliseconds below a second, then seconds', () => {
    expect([0.04, 0.96, 9.94, 44.096496, 999.4, 1530, 61_000].map(formatDuration)).toEqual(['0.0 ms', '1.0 ms', '9.9 ms', '44 ms', '999 ms', '1.5 s', '61.0 s']);
  });
});
