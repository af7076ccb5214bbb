import { describe, expect, it } from 'vitest';
import { linkAvailability } from './payment-links.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const FINISH = Date.parse('2026-01-02T00:00:00.000Z');
const link = (start_at: string | null, finish_at: string | null) => ({ availability: { start_at, finish_at } });

describe('linkAvailability', () => {
  it('is payable from its start, up to but not at its finish', () => {
    const window = link(new Date(START).toISOString(), new Date(FINISH).toISOString());
    expect([START - 1, START, FINISH - 1, FINISH].map((at) => linkAvailability(window, at))).toEqual(['not yet available', 'available', 'available', 'expired']);
  });

  it('has no bound where a time is missing', () => {
    expect(linkAvailability(link(null, null), 0)).toBe('available');
  });
});
