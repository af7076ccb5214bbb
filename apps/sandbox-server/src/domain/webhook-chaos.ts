import { DEFAULT_WEBHOOK_CHAOS_HOLD_SECONDS, type WebhookChaosRule, type WebhookDeliveryChaos } from '@switchyard/contract';
import type { DeliveryAttempt, DeliveryState } from './webhook-delivery.js';
import { nextRandom } from './seeded-random.js';

/**
 * Webhook chaos (docs/webhooks.md, "Webhook chaos"): which delivery a merchant's rules pick when it
 * is queued, what the pick does to it, and how chaos decides an attempt. Pure: the outbox and the
 * dispatcher load and save, these functions decide.
 */

/** A rule as stored: the API's view, the state of its PRNG, and the deliveries its `reorder` holds. */
export interface WebhookChaosRecord extends WebhookChaosRule {
  rng_state: number;
  /** Held deliveries, at most one per webhook: the next delivery to that webhook releases it. */
  holding: { webhook_id: string; delivery_id: string }[];
}

export function matches(rule: WebhookChaosRule, d: Pick<DeliveryState, 'webhook_id' | 'url' | 'event_type'>): boolean {
  const { webhook_id, url, event_type } = rule.match;
  return (webhook_id === undefined || webhook_id === d.webhook_id) && (url === undefined || url === d.url) && (event_type === undefined || event_type === d.event_type);
}

/** Deliveries the rules hold for `webhookId`: the candidates a new delivery to that webhook releases. */
export const heldFor = (rules: WebhookChaosRecord[], webhookId: string): string[] =>
  rules.flatMap((r) => r.holding.filter((h) => h.webhook_id === webhookId).map((h) => h.delivery_id));

export interface ChaosPlan {
  /** The delivery (changed by its effect) and, for `duplicate`, its copies: what the outbox writes. */
  deliveries: DeliveryState[];
  /** The rules as they are after the pick (counters, PRNG, holdings); write back those that differ. */
  rules: WebhookChaosRecord[];
}

const addSeconds = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

const chaosOf = (rule: WebhookChaosRule, fields: Partial<WebhookDeliveryChaos> = {}): WebhookDeliveryChaos => ({
  rule_id: rule.id,
  effect: rule.effect.type,
  duplicate_of: null,
  held_until: null,
  released_by: null,
  attempts: null,
  ...fields,
});

/**
 * What the rules do to a delivery being queued. First, the delivery releases the deliveries still
 * held (`stillHeld`, unattempted) for its webhook: they go after its first attempt, and every
 * holding of that webhook is dropped from the rules. Then the rules are tried oldest first: a rule
 * that matches and has `times` left draws against its probability; the first that fires applies its
 * effect, and the others are not tried (one effect per delivery). A delivery that releases a held
 * one is never held itself, so a `reorder` always swaps two deliveries and never chains.
 */
export function planChaos(rules: WebhookChaosRecord[], delivery: DeliveryState, stillHeld: string[], newId: () => string): ChaosPlan {
  const releasing = stillHeld.length > 0;
  const current = rules.map((r) => (r.holding.some((h) => h.webhook_id === delivery.webhook_id) ? { ...r, holding: r.holding.filter((h) => h.webhook_id !== delivery.webhook_id) } : r));
  const queued: DeliveryState = releasing ? { ...delivery, releases: stillHeld } : delivery;
  for (const [i, rule] of current.entries()) {
    if (!matches(rule, queued) || (rule.times !== null && rule.applied >= rule.times) || (releasing && rule.effect.type === 'reorder')) continue;
    const drawn = rule.probability >= 1 ? { value: 0, state: rule.rng_state } : nextRandom(rule.rng_state);
    const fires = drawn.value < rule.probability;
    const updated: WebhookChaosRecord = { ...rule, rng_state: drawn.state, applied: rule.applied + (fires ? 1 : 0) };
    if (!fires) {
      current[i] = updated;
      continue;
    }
    const { deliveries, holding } = applyEffect(updated, queued, newId);
    current[i] = holding ? { ...updated, holding: [...updated.holding, holding] } : updated;
    return { deliveries, rules: current };
  }
  return { deliveries: [queued], rules: current };
}

function applyEffect(rule: WebhookChaosRecord, d: DeliveryState, newId: () => string): { deliveries: DeliveryState[]; holding?: WebhookChaosRecord['holding'][number] } {
  const effect = rule.effect;
  switch (effect.type) {
    case 'duplicate': {
      const copies = Array.from({ length: effect.copies ?? 1 }, (): DeliveryState => ({ ...d, id: newId(), releases: undefined, chaos: chaosOf(rule, { duplicate_of: d.id }) }));
      return { deliveries: [{ ...d, chaos: chaosOf(rule) }, ...copies] };
    }
    case 'reorder': {
      const heldUntil = addSeconds(d.created_at, effect.max_hold_seconds ?? DEFAULT_WEBHOOK_CHAOS_HOLD_SECONDS);
      return { deliveries: [{ ...d, next_attempt_at: heldUntil, chaos: chaosOf(rule, { held_until: heldUntil }) }], holding: { webhook_id: d.webhook_id, delivery_id: d.id } };
    }
    case 'delay': {
      const heldUntil = addSeconds(d.created_at, effect.seconds);
      return { deliveries: [{ ...d, next_attempt_at: heldUntil, chaos: chaosOf(rule, { held_until: heldUntil }) }] };
    }
    case 'fail':
    case 'timeout':
      return { deliveries: [{ ...d, chaos: chaosOf(rule, { attempts: effect.attempts ?? 1 }) }] };
  }
}

/** Whether a held delivery is still waiting for its first attempt (a release still means something). */
export const isStillHeld = (d: DeliveryState | undefined): d is DeliveryState => d !== undefined && d.state === 'pending' && d.attempts.length === 0;

/**
 * A held delivery released at `atIso` (sandbox time): due then, unless its hold ran out earlier.
 * `releasedBy` is the delivery whose first attempt released it, or null (its rule was deleted).
 */
export function releaseHeld(held: DeliveryState, releasedBy: string | null, atIso: string): DeliveryState {
  if (!isStillHeld(held) || held.next_attempt_at === null || Date.parse(held.next_attempt_at) <= Date.parse(atIso)) return held;
  return { ...held, next_attempt_at: atIso, chaos: held.chaos ? { ...held.chaos, released_by: releasedBy } : held.chaos };
}

/** The chaos that decides the delivery's next attempt: `fail` or `timeout` while it still takes attempts. */
export function attemptChaos(d: DeliveryState): 'fail' | 'timeout' | null {
  const chaos = d.chaos;
  if (!chaos || (chaos.effect !== 'fail' && chaos.effect !== 'timeout')) return null;
  return d.attempts.length < (chaos.attempts ?? 0) ? chaos.effect : null;
}

/**
 * The attempt a `fail` records in place of a POST: nothing is sent (no status, no bytes, no
 * signature, as for any attempt not sent), and the retry schedule goes on as after a real failure.
 */
export function failedByChaos(d: DeliveryState, retry: number, at: string): DeliveryAttempt {
  const chaos = d.chaos as WebhookDeliveryChaos;
  return {
    retry,
    at,
    status_code: null,
    duration_ms: 0,
    error: `webhook chaos: attempt ${retry + 1} of the ${chaos.attempts} that rule ${chaos.rule_id} fails; the receiver was not called`,
    request_body: '',
    signature: '',
    chaos: 'fail',
  };
}

/** The `error` of an attempt a `timeout` took: the receiver got the request, and its answer was discarded. */
export const timedOutByChaos = (d: DeliveryState, status: number) =>
  `timed out (webhook chaos rule ${d.chaos?.rule_id}): the receiver answered ${status}, which counts as no answer`;
