import { describe, expect, it } from 'vitest';
import { WebhookEvent } from '@switchyard/contract';
import { answers } from '@switchyard/contract/fixtures';
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

describe('a delivery attempt (upstream schedule, the upstream notes on webhooks)', () => {
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
    const kept = { soft_descriptor: '', subscription_agreement_id: 'sa_s' };
    const stored = { ...delivery, envelope: { type: 'subscription', data: { subscription: { id: 's', description: null, merchant_reference: 'ref', metadata: null, ...kept }, idempotency_key: 'e' } } };
    expect(nextAttempt(stored).body).toBe('{"type":"subscription","retry":0,"data":{"subscription":{"id":"s","description":"","merchant_reference":"ref","metadata":null,"soft_descriptor":"","subscription_agreement_id":"sa_s"},"idempotency_key":"e"}}');
    const current = { ...stored, envelope: { type: 'subscription', data: { subscription: { id: 's', description: 'd', merchant_reference: '', ...kept } } } };
    expect(nextAttempt(current).body).toBe('{"type":"subscription","retry":0,"data":{"subscription":{"id":"s","description":"d","merchant_reference":"","soft_descriptor":"","subscription_agreement_id":"sa_s"}}}');
  });

  it('sends a session enrollment queued by 0.2.0 with customer_payer null without it, every other byte as stored', () => {
    const stored = { ...delivery, envelope: { type: 'enrollment', data: { payment_method: { id: 'm', customer_payer: null, preferred: null }, idempotency_key: 'e' } } };
    expect(nextAttempt(stored).body).toBe('{"type":"enrollment","retry":0,"data":{"payment_method":{"id":"m","preferred":null},"idempotency_key":"e"}}');
    const current = { ...delivery, envelope: { type: 'enrollment', data: { payment_method: { id: 'm', customer_payer: { first_name: '' } } } } };
    expect(nextAttempt(current).body).toBe('{"type":"enrollment","retry":0,"data":{"payment_method":{"id":"m","customer_payer":{"first_name":""}}}}');
  });

  // docs/fidelity.md, "Absent values": §2.10 types customer_payer and trial_period (with its amount)
  // objects and next_at a date-time, none nullable; they were answered null before.
  it('sends a subscription queued with a null customer_payer, trial_period, trial amount or next_at as answered now: objects left out, next_at ""', () => {
    const queued = (subscription: Record<string, unknown>): DeliveryState => ({
      ...delivery,
      event_type: 'subscription.complete',
      envelope: { type: 'subscription', type_event: 'subscription.complete', account_id: 'a', version: 2, data: { subscription, idempotency_key: 'e' } },
    });
    const sent = (d: DeliveryState) => JSON.parse(nextAttempt(d).body) as { data: { subscription: Record<string, unknown> } };
    const stored = storedSubscription({ customer_payer: null, trial_period: null, billing_cycles: { total: 1, current: 1, next_at: null } });
    const body = nextAttempt(queued(stored)).body;
    const { subscription } = sent(queued(stored)).data;
    expect(subscription).not.toHaveProperty('customer_payer');
    expect(subscription).not.toHaveProperty('trial_period');
    expect(subscription.billing_cycles).toEqual({ total: 1, current: 1, next_at: '' });
    // Every other key as stored, in its stored order.
    const { customer_payer: _c, trial_period: _t, billing_cycles: _b, ...rest } = stored;
    expect(Object.keys(subscription)).toEqual(Object.keys(stored).filter((k) => k !== 'customer_payer' && k !== 'trial_period'));
    expect(subscription).toMatchObject(rest);
    expect(WebhookEvent.safeParse(JSON.parse(body)).success).toBe(true);
    // The stored envelope, sent unchanged, is what a parser of the contract refuses.
    expect(WebhookEvent.safeParse({ ...queued(stored).envelope, retry: 0 }).success).toBe(false);

    const freeOfAmount = storedSubscription({ trial_period: { billing_cycles: 2, amount: null } });
    expect(sent(queued(freeOfAmount)).data.subscription.trial_period).toEqual({ billing_cycles: 2 });
    expect(WebhookEvent.safeParse(JSON.parse(nextAttempt(queued(freeOfAmount)).body)).success).toBe(true);

    // Queued by 0.2.0, which kept no soft_descriptor or agreement id: both are added, as the subscription answers them.
    const { soft_descriptor: _s, subscription_agreement_id: _a, ...byOldVersion } = storedSubscription({});
    const added = sent(queued(byOldVersion)).data.subscription;
    expect(added).toMatchObject({ soft_descriptor: '', subscription_agreement_id: `sa_${String(byOldVersion.id)}` });
    expect(WebhookEvent.safeParse(JSON.parse(nextAttempt(queued(byOldVersion)).body)).success).toBe(true);

    const current = storedSubscription({});
    expect(nextAttempt(queued(current)).body).toBe(JSON.stringify({ type: 'subscription', type_event: 'subscription.complete', account_id: 'a', version: 2, retry: 0, data: { subscription: current, idempotency_key: 'e' } }));
  });
});

/** A subscription as a webhook carries it today, completed, with a payer and a free trial, and `changes` laid over it in place. */
function storedSubscription(changes: Record<string, unknown>): Record<string, unknown> {
  const today: Record<string, unknown> = {
    ...answers.subscription(),
    status: 'COMPLETED',
    billing_cycles: { total: 1, current: 1, next_at: '' },
    customer_payer: { id: '0c7fed3e-ee0d-4d34-9547-778be4ec0798' },
    trial_period: { billing_cycles: 1, amount: { currency: 'ARS', value: 0 } },
  };
  return Object.fromEntries(Object.entries(today).map(([key, value]) => [key, key in changes ? changes[key] : value]));
}
