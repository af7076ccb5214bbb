import { describe, expect, it } from 'vitest';
import { BaseClock } from './clock.js';

describe('BaseClock.isoAt', () => {
  it('formats the same instant as at(), for each offset in turn', () => {
    const clock = new BaseClock(Date.parse('2026-03-01T10:00:00.000Z'));
    expect(clock.isoAt(0)).toBe('2026-03-01T10:00:00.000Z');
    expect(clock.isoAt(90)).toBe(clock.at(90).toISOString());
    expect(clock.isoAt(0)).toBe('2026-03-01T10:00:00.000Z');
  });

  it('follows the machine clock when not frozen', async () => {
    const clock = new BaseClock(undefined);
    const first = clock.isoAt(0);
    await new Promise((r) => setTimeout(r, 5));
    expect(Date.parse(clock.isoAt(0))).toBeGreaterThan(Date.parse(first));
  });
});
