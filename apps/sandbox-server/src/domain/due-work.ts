import type { BankingOnboarding, SandboxEvent } from '@switchyard/contract';
import type { RecordKind } from './record-kind.js';
import { isOnboardingFinal } from './onboarding.js';
import { waitingExpiryMs } from './alternative-methods.js';
import type { PaymentState } from './payment-state.js';
import { IDEMPOTENCY_RETENTION_MS, type IdempotencyRecord } from './idempotency.js';
import { nextChargeAtMs, type SubscriptionState } from './subscriptions.js';
import type { DeliveryState } from './webhook-delivery.js';

/** How long events and finished webhook deliveries are kept, in sandbox time. */
export const EVENT_RETENTION_MS = 30 * 86400_000;

/**
 * The two kinds of work the merchant's clock does to a record when it passes a moment:
 * `clock` — a scheduled step (charge a subscription cycle, expire an onboarding or a payment waiting
 * for its payer, attempt a webhook delivery); `retention` — delete it (events, finished deliveries,
 * idempotency records).
 */
export type DueLane = 'clock' | 'retention';

export interface Due {
  lane: DueLane;
  /** Milliseconds on the merchant's clock. */
  at: number;
}

/** A time that does not parse is no due work (a record without the field). */
const dueAt = (lane: DueLane, at: number): Due | null => (Number.isFinite(at) ? { lane, at } : null);

/**
 * When the clock next has work on a record, or null when it never will. The stores index every
 * record by this on each write, so the clock finds what fell due without reading a tenant's data
 * (`Tx.listDue`). It only tells when to look: the rules that act (`nextDueCharge`, the delivery
 * schedule, retention) decide what to do.
 */
export function dueOf(kind: RecordKind, data: unknown): Due | null {
  switch (kind) {
    case 'subscription': {
      const at = nextChargeAtMs(data as SubscriptionState);
      return at === null ? null : dueAt('clock', at);
    }
    case 'banking_onboarding': {
      const o = data as BankingOnboarding;
      return isOnboardingFinal(o) ? null : dueAt('clock', Date.parse(o.expires_at));
    }
    case 'payment': {
      // Only a payment waiting for its payer has work on the clock: its expiry.
      const p = data as PaymentState;
      const at = p.status === 'READY_TO_PAY' ? waitingExpiryMs(p) : null;
      return at === null ? null : dueAt('clock', at);
    }
    case 'webhook_delivery': {
      const d = data as DeliveryState;
      if (d.state !== 'pending') return dueAt('retention', Date.parse(d.created_at) + EVENT_RETENTION_MS);
      return d.next_attempt_at === null ? null : dueAt('clock', Date.parse(d.next_attempt_at));
    }
    case 'event':
      return dueAt('retention', Date.parse((data as SandboxEvent).created_at) + EVENT_RETENTION_MS);
    case 'idempotency': {
      const r = data as IdempotencyRecord;
      return r.state === 'in_progress' ? null : dueAt('retention', r.created_at_ms + IDEMPOTENCY_RETENTION_MS);
    }
    default:
      return null;
  }
}
