import { describe, expect, it } from 'vitest';
import type { WebhookChaosEffect } from '@switchyard/contract';
import { attemptChaos, failedByChaos, heldFor, planChaos, releaseHeld, type WebhookChaosRecord } from './webhook-chaos.js';
import { afterAttempt, type DeliveryState } from './webhook-delivery.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './webhook-routing.js';

const T0 = '2026-01-01T00:00:00.000Z';
const delivery = (id: string, fields: Partial<DeliveryState> = {}): DeliveryState => ({
  id,
  event_id: `e-${id}`,
  event_type: 'payment.purchase',
  webhook_id: 'wh_1',
  url: 'http://127.0.0.1:9/hooks',
  account_id: 'a',
  state: 'pending',
  idempotency_key: `e-${id}`,
  envelope: {},
  attempts: [],
  next_attempt_at: T0,
  claimed_until_ms: null,
  created_at: T0,
  chaos: null,
  ...fields,
});
const rule = (effect: WebhookChaosEffect, fields: Partial<WebhookChaosRecord> = {}): WebhookChaosRecord => ({
  id: `r-${effect.type}`,
  match: {},
  effect,
  probability: 1,
  seed: 0,
  times: null,
  applied: 0,
  created_at: T0,
  rng_state: 0,
  holding: [],
  ...fields,
});
let n = 0;
const newId = () => `copy-${++n}`;

describe('planChaos', () => {
  it('duplicates a delivery into copies of the same event, each marked with the original', () => {
    const { deliveries, rules } = planChaos([rule({ type: 'duplicate', copies: 2 })], delivery('d1'), [], newId);
    expect(deliveries.map((d) => [d.event_id, d.idempotency_key, d.chaos?.duplicate_of])).toEqual([
      ['e-d1', 'e-d1', null],
      ['e-d1', 'e-d1', 'd1'],
      ['e-d1', 'e-d1', 'd1'],
    ]);
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(3);
    expect(rules[0]?.applied).toBe(1);
  });

  it('delays the first attempt by sandbox seconds, and holds a reorder until the next delivery to the webhook or its bound', () => {
    const delayed = planChaos([rule({ type: 'delay', seconds: 90 })], delivery('d1'), [], newId).deliveries[0];
    expect(delayed).toMatchObject({ next_attempt_at: '2026-01-01T00:01:30.000Z', chaos: { effect: 'delay', held_until: '2026-01-01T00:01:30.000Z' } });
    const held = planChaos([rule({ type: 'reorder', max_hold_seconds: 60 })], delivery('d1'), [], newId);
    expect(held.deliveries[0]).toMatchObject({ next_attempt_at: '2026-01-01T00:01:00.000Z', chaos: { effect: 'reorder', released_by: null } });
    expect(heldFor(held.rules, 'wh_1')).toEqual(['d1']);
    // The next delivery to the webhook releases it, is not held itself, and the holding is gone.
    const next = planChaos(held.rules, delivery('d2'), ['d1'], newId);
    expect(next.deliveries).toEqual([expect.objectContaining({ id: 'd2', releases: ['d1'], chaos: null, next_attempt_at: T0 })]);
    expect(heldFor(next.rules, 'wh_1')).toEqual([]);
    // A delivery to another webhook neither releases it nor is kept from being held.
    expect(heldFor(planChaos(held.rules, delivery('d3', { webhook_id: 'wh_2' }), [], newId).rules, 'wh_1')).toEqual(['d1']);
  });

  it('applies the oldest rule that matches and fires, one effect per delivery, within `times`', () => {
    const rules = [rule({ type: 'fail', attempts: 2 }, { match: { event_type: 'payment.refund' } }), rule({ type: 'timeout' }, { times: 1 }), rule({ type: 'delay', seconds: 5 })];
    const first = planChaos(rules, delivery('d1'), [], newId);
    expect(first.deliveries[0]?.chaos).toMatchObject({ effect: 'timeout', attempts: 1 });
    expect(first.rules.map((r) => r.applied)).toEqual([0, 1, 0]);
    const second = planChaos(first.rules, delivery('d2'), [], newId);
    expect(second.deliveries[0]?.chaos?.effect).toBe('delay');
    expect(planChaos(rules, delivery('d3', { event_type: 'payment.refund' }), [], newId).deliveries[0]?.chaos).toMatchObject({ effect: 'fail', attempts: 2 });
    expect(planChaos(rules, delivery('d4', { webhook_id: 'wh_9' }), [], newId).deliveries[0]?.chaos?.effect).toBe('timeout');
    expect(planChaos([rule({ type: 'duplicate' }, { match: { url: 'http://elsewhere/' } })], delivery('d5'), [], newId).deliveries).toEqual([delivery('d5')]);
  });

  it('draws probability from the seeded PRNG: the same seed picks the same deliveries', () => {
    const picks = (seed: number) => {
      let rules = [rule({ type: 'delay', seconds: 1 }, { probability: 0.5, seed, rng_state: seed })];
      return Array.from({ length: 40 }, (_, i) => {
        const plan = planChaos(rules, delivery(`d${i}`), [], newId);
        rules = plan.rules;
        return plan.deliveries[0]?.chaos ? 1 : 0;
      });
    };
    expect(picks(7)).toEqual(picks(7));
    expect(picks(7)).not.toEqual(picks(8));
    const hits = picks(7).reduce<number>((a, b) => a + b, 0);
    expect(hits).toBeGreaterThan(5);
    expect(hits).toBeLessThan(35);
  });
});

describe('attempt chaos', () => {
  it('fails the first N attempts without a request, then lets the schedule go on as after a real failure', () => {
    let d = planChaos([rule({ type: 'fail', attempts: 2 })], delivery('d1'), [], newId).deliveries[0] as DeliveryState;
    for (let retry = 0; retry < 2; retry += 1) {
      expect(attemptChaos(d)).toBe('fail');
      const attempt = failedByChaos(d, retry, d.next_attempt_at as string);
      expect(attempt).toMatchObject({ status_code: null, request_body: '', signature: '', chaos: 'fail', error: expect.stringContaining('the receiver was not called') });
      d = afterAttempt(d, attempt, 1);
    }
    expect(d).toMatchObject({ state: 'pending', next_attempt_at: new Date(Date.parse(T0) + (RETRY_DELAYS_MS[0] as number) + (RETRY_DELAYS_MS[1] as number)).toISOString() });
    expect(attemptChaos(d)).toBeNull();
    expect(attemptChaos(delivery('plain'))).toBeNull();
    expect(RETRY_DELAYS_MS.length + 1).toBe(MAX_ATTEMPTS);
  });

  it('releases a held delivery at the releasing attempt, never later than its bound and never once attempted', () => {
    const held = planChaos([rule({ type: 'reorder', max_hold_seconds: 60 })], delivery('d1'), [], newId).deliveries[0] as DeliveryState;
    expect(releaseHeld(held, 'd2', '2026-01-01T00:00:10.000Z')).toMatchObject({ next_attempt_at: '2026-01-01T00:00:10.000Z', chaos: { released_by: 'd2' } });
    expect(releaseHeld(held, 'd2', '2026-01-01T00:05:00.000Z')).toBe(held);
    const attempted = { ...held, attempts: [failedByChaos(held, 0, T0)] };
    expect(releaseHeld(attempted, 'd2', T0)).toBe(attempted);
  });
});
