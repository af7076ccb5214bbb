import { describe, expect, it } from 'vitest';
import { billingStart, cycleResultOf } from './subscriptions.js';

describe('cycleResultOf', () => {
  it('reads a paid, declined or pending payment as such, and any other status as an error', () => {
    expect(['SUCCEEDED', 'DECLINED', 'PENDING', 'ERROR', 'CANCELED', 'REJECTED'].map((status) => cycleResultOf({ status }))).toEqual(['SUCCEEDED', 'DECLINED', 'PENDING', 'ERROR', 'ERROR', 'ERROR']);
  });
});

// Upstream: Create Subscription (a past start_at, 12 cycles, answered ACTIVE with current 1).
describe('billingStart', () => {
  const now = '2026-06-01T00:00:00.000Z';
  it('starts now when start_at is absent or already past', () => {
    expect(billingStart(undefined, now)).toBe(now);
    expect(billingStart('2024-11-01T00:00:00Z', now)).toBe(now);
    expect(billingStart(now, now)).toBe(now);
  });

  it('keeps a start_at in the future', () => {
    expect(billingStart('2026-07-01T00:00:00.000Z', now)).toBe('2026-07-01T00:00:00.000Z');
  });
});
