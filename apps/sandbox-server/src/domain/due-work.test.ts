import { describe, expect, it } from 'vitest';
import { dueOf, EVENT_RETENTION_MS } from './due-work.js';
import { IDEMPOTENCY_RETENTION_MS } from './idempotency.js';
import type { SubscriptionState } from './subscriptions.js';

const subscription = (changes: Partial<SubscriptionState>): SubscriptionState =>
  ({
    status: 'ACTIVE',
    next_at: '2026-02-01T00:00:00.000Z',
    availability: { start_at: '2026-01-01T00:00:00.000Z', finish_at: null },
    retries: { retry_on_decline: true, amount: 2 },
    latest: null,
    ...changes,
  }) as SubscriptionState;

describe('dueOf', () => {
  it('puts a subscription at its next cycle, and nowhere once nothing can be charged', () => {
    expect(dueOf('subscription', subscription({}))).toEqual({ lane: 'clock', at: Date.parse('2026-02-01T00:00:00.000Z') });
    expect(dueOf('subscription', subscription({ status: 'COMPLETED' }))).toBeNull();
    // Cycles beyond the subscription's end are never planned (docs/sandbox-testing.md, "Advancing the clock").
    expect(dueOf('subscription', subscription({ availability: { start_at: '2026-01-01T00:00:00.000Z', finish_at: '2026-02-01T00:00:00.000Z' } }))).toBeNull();
  });

  it('puts a past-due subscription at its next smart retry, and nowhere without one left', () => {
    const latest = { cycle: 2, payment_ids: ['p'], status: 'DECLINED' as const, manual_retries: [], smart_retries_left: 1, smart_retry_stopped: false, next_smart_retry_at: '2026-02-02T00:00:00.000Z' };
    expect(dueOf('subscription', subscription({ status: 'PAST_DUE', latest }))).toEqual({ lane: 'clock', at: Date.parse('2026-02-02T00:00:00.000Z') });
    expect(dueOf('subscription', subscription({ status: 'PAST_DUE', latest: { ...latest, smart_retries_left: 0 } }))).toBeNull();
    expect(dueOf('subscription', subscription({ status: 'PAST_DUE', latest: { ...latest, smart_retry_stopped: true } }))).toBeNull();
  });

  it('puts a pending delivery at its next attempt and a finished one at the end of its retention', () => {
    const created = Date.parse('2026-01-01T00:00:00.000Z');
    expect(dueOf('webhook_delivery', { state: 'pending', next_attempt_at: '2026-01-01T00:05:00.000Z', created_at: '2026-01-01T00:00:00.000Z' })).toEqual({ lane: 'clock', at: created + 300_000 });
    expect(dueOf('webhook_delivery', { state: 'failed', next_attempt_at: null, created_at: '2026-01-01T00:00:00.000Z' })).toEqual({ lane: 'retention', at: created + EVENT_RETENTION_MS });
  });

  it('keeps idempotency records in flight, and events and onboardings by their times', () => {
    expect(dueOf('idempotency', { state: 'in_progress', created_at_ms: 5 })).toBeNull();
    expect(dueOf('idempotency', { state: 'completed', created_at_ms: 5 })).toEqual({ lane: 'retention', at: 5 + IDEMPOTENCY_RETENTION_MS });
    expect(dueOf('event', { created_at: '2026-01-01T00:00:00.000Z' })).toEqual({ lane: 'retention', at: Date.parse('2026-01-01T00:00:00.000Z') + EVENT_RETENTION_MS });
    expect(dueOf('banking_onboarding', { status: 'PENDING', expires_at: '2026-01-31T00:00:00.000Z' })).toEqual({ lane: 'clock', at: Date.parse('2026-01-31T00:00:00.000Z') });
    expect(dueOf('banking_onboarding', { status: 'SUCCEEDED', expires_at: '2026-01-31T00:00:00.000Z' })).toBeNull();
    expect(dueOf('customer', { created_at: '2026-01-01T00:00:00.000Z' })).toBeNull();
  });
});
