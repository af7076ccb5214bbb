import type { WebhookDeliveryChaos } from '@switchyard/contract';
import { isRecord, withoutKey } from './absent-values.js';
import { storedSubscriptionAsAnswered } from './subscription-view.js';
import { MAX_ATTEMPTS, nextRetryDelayMs } from './webhook-routing.js';

export interface DeliveryAttempt {
  retry: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  request_body: string;
  signature: string;
  /** The webhook chaos effect that decided the outcome (domain/webhook-chaos.ts); absent on records older than chaos. */
  chaos?: 'fail' | 'timeout' | null;
}

/** A delivery of one event to one webhook, with every attempt (the outbox record). */
export interface DeliveryState {
  id: string;
  event_id: string;
  event_type: string;
  webhook_id: string;
  url: string;
  account_id: string;
  state: 'pending' | 'delivered' | 'failed';
  idempotency_key: string;
  /** The envelope without `retry`, which each attempt sets. */
  envelope: Record<string, unknown>;
  attempts: DeliveryAttempt[];
  /** Sandbox time of the next attempt; null when nothing is left to send. */
  next_attempt_at: string | null;
  /** Real time until which an attempt is in flight (so two dispatchers never send it twice). */
  claimed_until_ms: number | null;
  created_at: string;
  /** The chaos rule that picked the delivery and its effect (domain/webhook-chaos.ts). */
  chaos?: WebhookDeliveryChaos | null;
  /** Deliveries a `reorder` holds until this one's first attempt is recorded; released then (`releaseHeld`). */
  releases?: string[];
}

/** Whether an attempt of the delivery is in flight: claimed until a real time still ahead (`claimedUntil`). */
export function isInFlight(d: DeliveryState, realNowMs: number): boolean {
  return d.claimed_until_ms !== null && d.claimed_until_ms > realNowMs;
}

/** Whether the delivery's next attempt is due at `nowMs` on its merchant's clock. */
export function isDue(d: DeliveryState, nowMs: number): boolean {
  return d.state === 'pending' && d.next_attempt_at !== null && Date.parse(d.next_attempt_at) <= nowMs;
}

/** The delivery claimed for one attempt until `untilMs` (real time): no other dispatcher sends it meanwhile. */
export const claimedUntil = (d: DeliveryState, untilMs: number): DeliveryState => ({ ...d, claimed_until_ms: untilMs });

/**
 * The next attempt's request: its retry number (0 for the first), its time (the scheduled one, or
 * `forcedAt` for a redelivery) and the exact body that is signed and sent, the envelope with `retry`.
 */
export function nextAttempt(d: DeliveryState, forcedAt?: string): { retry: number; at: string; body: string } {
  const retry = d.attempts.length;
  const { data, ...head } = d.envelope;
  return { retry, at: forcedAt ?? (d.next_attempt_at as string), body: JSON.stringify({ ...head, retry, data: withAbsentValuesAsAnswered(data) }) };
}

/**
 * A subscription or a session enrollment queued before its absent values were answered as now (a
 * PostgreSQL store or a snapshot from before then) keeps its old form in its stored envelope.
 * Each attempt sends it as it is answered now (`storedSubscriptionAsAnswered`, a `null`
 * `customer_payer` left out), so a parser of the contract's types accepts the retry and the
 * redelivery; every other byte stays as stored.
 */
function withAbsentValuesAsAnswered(data: unknown): unknown {
  const subscription = (data as { subscription?: unknown } | null | undefined)?.subscription;
  if (isRecord(subscription)) return { ...(data as object), subscription: storedSubscriptionAsAnswered(subscription) };
  // A session enrollment queued by 0.2.0 carries `customer_payer: null` (a webhook never looked its customer up).
  const method = (data as { payment_method?: unknown } | null | undefined)?.payment_method;
  if (isRecord(method) && method.customer_payer === null) return { ...(data as object), payment_method: withoutKey(method, 'customer_payer') };
  return data;
}


/**
 * The delivery after one more attempt: delivered on a 200; otherwise the next attempt is
 * scheduled after the previous one on upstream's schedule, until the 7th fails. `retriable` is
 * false when the webhook is gone: nothing is left to send to.
 */
export function afterAttempt(d: DeliveryState, attempt: DeliveryAttempt, timeScale: number, retriable = true): DeliveryState {
  const attempts = [...d.attempts, attempt];
  const delivered = attempt.status_code === 200;
  const delay = delivered || !retriable ? null : nextRetryDelayMs(attempts.length, timeScale);
  return {
    ...d,
    attempts,
    claimed_until_ms: null,
    state: delivered ? 'delivered' : delay === null || attempts.length >= MAX_ATTEMPTS ? 'failed' : 'pending',
    next_attempt_at: delivered || delay === null ? null : new Date(Date.parse(attempt.at) + delay).toISOString(),
  };
}

/** The `error` of an attempt the dispatcher did not send (docs/webhooks.md, "Unreachable receivers"). */
export const notSentError = (reason: string) => `not sent: the receiver did not answer an earlier attempt of this dispatch run (${reason})`;

/**
 * Records, without sending them, the scheduled attempts due up to `untilMs` of a delivery whose
 * receiver did not answer earlier in the same dispatch run: each is an attempt at its scheduled
 * time with no status, no bytes and `notSentError(reason)`. The outcome is what sending would have
 * given at once, computed without a request per attempt; the log says which attempts were sent.
 */
export function skipUnanswered(d: DeliveryState, untilMs: number, reason: string, timeScale: number): DeliveryState {
  let current = d;
  while (current.state === 'pending' && current.next_attempt_at !== null && Date.parse(current.next_attempt_at) <= untilMs) {
    const attempt = { retry: current.attempts.length, at: current.next_attempt_at, status_code: null, duration_ms: 0, error: notSentError(reason), request_body: '', signature: '' };
    current = afterAttempt(current, attempt, timeScale);
  }
  return current;
}
