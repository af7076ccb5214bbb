import { describe, expect, it } from 'vitest';
import { afterAttempt, claimedUntil, isDue, isInFlight, nextAttempt, notSentError, skipUnanswered, type DeliveryState } from './webhook-delivery.js';
import { RETRY_DELAYS_MS } from './webhook-routing.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const delivery: DeliveryState = {
  id: 'd',
  event_id: 'e',
  event_type: 'payment.purchase',
  webhook_id: 'w',
  url: 'http://127.0.0.1:9/hooks',
  account_id: 'a',
  state: 'pending',
  idempotency_key: 'e',
  envelope: {},
  attempts: [],
  next_attempt_at: new Date(T0).toISOString(),
  claimed_until_ms: 1,
  created_at: new Date(T0).toISOString(),
};
const refused = { retry: 0, at: new Date(T0).toISOString(), status_code: null, duration_ms: 1.2, error: 'fetch failed: connect ECONNREFUSED', request_body: '{}', signature: 's' };

describe('a delivery attempt (upstream schedule, UPSTREAM-NOTES.md "Webhooks")', () => {
  it('schedules the next attempt after the previous one, and is delivered on a 200', () => {
    const failed = afterAttempt(delivery, refused, 1);
    expect(failed).toMatchObject({ state: 'pending', claimed_until_ms: null, next_attempt_at: new Date(T0 + 5 * 60_000).toISOString() });
    expect(afterAttempt(failed, { ...refused, retry: 1, status_code: 200, error: null }, 1)).toMatchObject({ state: 'delivered', next_attempt_at: null });
    expect(afterAttempt(delivery, refused, 1, false)).toMatchObject({ state: 'failed', next_attempt_at: null });
  });

  it('records the attempts due by then of an unanswering receiver as not sent, at their scheduled times, up to failed', () => {
    const first = afterAttempt(delivery, refused, 1);
    const skipped = skipUnanswered(first, T0 + 365 * 86400_000, 'fetch failed', 1);
    expect(skipped).toMatchObject({ state: 'failed', next_attempt_at: null });
    expect(skipped.attempts.map((a) => a.retry)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    let at = T0;
    for (const [i, a] of skipped.attempts.slice(1).entries()) {
      at += RETRY_DELAYS_MS[i] as number;
      expect(a).toEqual({ retry: i + 1, at: new Date(at).toISOString(), status_code: null, duration_ms: 0, error: notSentError('fetch failed'), request_body: '', signature: '' });
    }
    // Only what fell due is recorded: an hour in, two more attempts, and the next one is scheduled.
    const soon = skipUnanswered(first, T0 + 3600_000, 'fetch failed', 1);
    expect(soon.attempts).toHaveLength(3);
    expect(soon).toMatchObject({ state: 'pending', next_attempt_at: new Date(T0 + 55 * 60_000 + 6 * 3600_000).toISOString() });
  });

  it('is claimed for one attempt until a real time, and due once its next attempt is at or before the clock', () => {
    const claimed = claimedUntil(delivery, 500);
    expect([isInFlight(claimed, 499), isInFlight(claimed, 500), isInFlight({ ...claimed, claimed_until_ms: null }, 0)]).toEqual([true, false, false]);
    expect([isDue(delivery, T0 - 1), isDue(delivery, T0), isDue({ ...delivery, state: 'delivered' }, T0), isDue({ ...delivery, next_attempt_at: null }, T0)]).toEqual([false, true, false, false]);
  });

  it('sends each attempt with its retry number in the envelope, at its scheduled time or when forced', () => {
    const withEnvelope = { ...delivery, envelope: { type: 'payment', data: { id: 'p' } } };
    expect(nextAttempt(withEnvelope)).toEqual({ retry: 0, at: new Date(T0).toISOString(), body: '{"type":"payment","retry":0,"data":{"id":"p"}}' });
    expect(nextAttempt(afterAttempt(withEnvelope, refused, 1), 'now')).toMatchObject({ retry: 1, at: 'now', body: '{"type":"payment","retry":1,"data":{"id":"p"}}' });
  });

  it('sends a subscription queued with null strings (stored before they were answered "") with "" in their place, every other byte as stored', () => {
    const stored = { ...delivery, envelope: { type: 'subscription', data: { subscription: { id: 's', description: null, merchant_reference: 'ref', metadata: null }, idempotency_key: 'e' } } };
    expect(nextAttempt(stored).body).toBe('{"type":"subscription","retry":0,"data":{"subscription":{"id":"s","description":"","merchant_reference":"ref","metadata":null},"idempotency_key":"e"}}');
    const current = { ...stored, envelope: { type: 'subscription', data: { subscription: { id: 's', description: 'd', merchant_reference: '' } } } };
    expect(nextAttempt(current).body).toBe('{"type":"subscription","retry":0,"data":{"subscription":{"id":"s","description":"d","merchant_reference":""}}}');
  });
});
