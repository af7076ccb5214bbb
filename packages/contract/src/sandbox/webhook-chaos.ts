import { z } from 'zod';
import { DateTime, text } from '../shared/primitives.js';
import { WEBHOOK_EVENT_SCHEMAS } from '../webhooks/events.js';
import { SeededChanceFields, StoredSeededChanceFields } from './seeded-chance.js';

/**
 * Webhook chaos (docs/webhooks.md, "Webhook chaos"): per-merchant rules under
 * `/sandbox/webhook-chaos` that make the sandbox deliver webhooks the way a real network does on a
 * bad day. A rule picks deliveries when they are queued (by webhook, URL or event type) and gives
 * each picked delivery one effect, which the delivery log shows.
 */

export const WEBHOOK_CHAOS_EFFECTS = ['duplicate', 'reorder', 'delay', 'fail', 'timeout'] as const;
export type WebhookChaosEffectType = (typeof WEBHOOK_CHAOS_EFFECTS)[number];

/** Upstream's attempts per delivery (the first and six retries): `fail` and `timeout` take at most all of them. */
export const WEBHOOK_DELIVERY_ATTEMPTS = 7;
/** The most chaos rules a merchant holds; creating one more is a 400. */
export const MAX_WEBHOOK_CHAOS_RULES = 20;
/** The most extra copies a `duplicate` effect sends of one delivery. */
export const MAX_WEBHOOK_CHAOS_COPIES = 3;
/** The longest `delay`, in seconds of the merchant's sandbox clock (7 days). */
export const MAX_WEBHOOK_CHAOS_DELAY_SECONDS = 7 * 86400;
/** The longest a `reorder` holds a delivery when no next delivery comes, in sandbox seconds (1 day). */
export const MAX_WEBHOOK_CHAOS_HOLD_SECONDS = 86400;
/** How long a `reorder` holds a delivery by default when no next delivery comes, in sandbox seconds. */
export const DEFAULT_WEBHOOK_CHAOS_HOLD_SECONDS = 300;
/** The most deliveries one rule applies to (`times`). */
export const MAX_WEBHOOK_CHAOS_TIMES = 1000;

const Attempts = z.number().int().min(1).max(WEBHOOK_DELIVERY_ATTEMPTS);

/**
 * Which deliveries a rule applies to; every field given must match. An empty match takes every
 * delivery of the merchant.
 */
export const WebhookChaosMatch = z
  .object({
    /** The webhook configuration's id (`wh_…`). */
    webhook_id: text(1, 64).optional(),
    /** The webhook's URL, exactly as registered. */
    url: text(1, 2048).optional(),
    /** The event, as in the delivery log (`payment.purchase`, `subscription.create`, `banking.onboarding.succeeded`, ...): one the sandbox delivers. */
    event_type: z.enum(Object.keys(WEBHOOK_EVENT_SCHEMAS) as [keyof typeof WEBHOOK_EVENT_SCHEMAS, ...(keyof typeof WEBHOOK_EVENT_SCHEMAS)[]]).optional(),
  })
  .strict();
export type WebhookChaosMatch = z.infer<typeof WebhookChaosMatch>;

/**
 * What happens to a picked delivery:
 * - `duplicate`: `copies` more deliveries of the same event (same bytes, same `idempotency_key`), each signed;
 * - `reorder`: held until the next delivery to the same webhook has had its first attempt, or for
 *   `max_hold_seconds` of sandbox time when none comes;
 * - `delay`: its first attempt `seconds` later on the sandbox clock;
 * - `fail`: its first `attempts` attempts fail without the receiver being called;
 * - `timeout`: its first `attempts` attempts are sent, and recorded as timed out whatever the receiver answers.
 */
export const WebhookChaosEffect = z.discriminatedUnion('type', [
  z.object({ type: z.literal('duplicate'), copies: z.number().int().min(1).max(MAX_WEBHOOK_CHAOS_COPIES).optional() }).strict(),
  z.object({ type: z.literal('reorder'), max_hold_seconds: z.number().int().min(1).max(MAX_WEBHOOK_CHAOS_HOLD_SECONDS).optional() }).strict(),
  z.object({ type: z.literal('delay'), seconds: z.number().int().min(1).max(MAX_WEBHOOK_CHAOS_DELAY_SECONDS) }).strict(),
  z.object({ type: z.literal('fail'), attempts: Attempts }).strict(),
  z.object({ type: z.literal('timeout'), attempts: Attempts.optional() }).strict(),
]);
export type WebhookChaosEffect = z.infer<typeof WebhookChaosEffect>;

export const CreateWebhookChaosBody = z
  .object({
    match: WebhookChaosMatch.optional(),
    effect: WebhookChaosEffect,
    ...SeededChanceFields,
    /** How many deliveries the rule applies to at most; without it, every one it picks. */
    times: z.number().int().min(1).max(MAX_WEBHOOK_CHAOS_TIMES).optional(),
  })
  .strict();
export type CreateWebhookChaosBody = z.infer<typeof CreateWebhookChaosBody>;

export const WebhookChaosRule = z.object({
  id: z.string(),
  match: WebhookChaosMatch,
  effect: WebhookChaosEffect,
  ...StoredSeededChanceFields,
  /** How many deliveries the rule has applied its effect to. */
  applied: z.number().int().min(0),
  created_at: DateTime,
});
export type WebhookChaosRule = z.infer<typeof WebhookChaosRule>;

export const WebhookChaosParams = z.object({ chaos_id: text(1, 64) });
export const ClearWebhookChaosResult = z.object({ deleted: z.number().int().min(0) });

/** The chaos a delivery got (in the delivery log); null on a delivery no rule picked. */
export const WebhookDeliveryChaos = z.object({
  rule_id: z.string(),
  effect: z.enum(WEBHOOK_CHAOS_EFFECTS),
  /** `duplicate`: on a copy, the delivery it copies; null on the original. */
  duplicate_of: z.string().nullable(),
  /** `delay` and `reorder`: the sandbox time of the first attempt at the latest. */
  held_until: DateTime.nullable(),
  /** `reorder`: the delivery whose first attempt released this one; null while held, or when the hold ran out or its rule was deleted. */
  released_by: z.string().nullable(),
  /** `fail` and `timeout`: how many first attempts the effect takes. */
  attempts: z.number().int().nullable(),
});
export type WebhookDeliveryChaos = z.infer<typeof WebhookDeliveryChaos>;

/** The chaos that decided one attempt's outcome: `fail` (not sent) or `timeout` (sent, answer discarded). */
export const WEBHOOK_ATTEMPT_CHAOS = ['fail', 'timeout'] as const;
