import { DomainError } from './errors.js';
import { event, type DomainEvent } from './events.js';
import type { PaymentState } from './payment-state.js';

export type Frequency = { type: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'; value: number };

export interface CycleCharge {
  cycle: number;
  /** Every payment made for the cycle: the scheduled charge, then retries. */
  payment_ids: string[];
  status: 'SUCCEEDED' | 'DECLINED' | 'ERROR' | 'PENDING';
  manual_retries: { payment_id: string; status: string }[];
  smart_retries_left: number;
  /** A manual retry stops smart retry for this payment (§4.13). */
  smart_retry_stopped: boolean;
  next_smart_retry_at: string | null;
}

export interface SubscriptionState {
  id: string;
  name: string;
  account_id: string;
  country: string;
  description: string | null;
  merchant_reference: string | null;
  /** `""` when none was sent; absent on records stored by 0.2.0, which kept neither field. */
  soft_descriptor?: string;
  /** Issued at creation; absent on records stored by 0.2.0 (`agreementIdOf` answers one). */
  subscription_agreement_id?: string;
  status: 'ACTIVE' | 'TRIALING' | 'PAST_DUE' | 'COMPLETED' | 'CANCELED';
  currency: string;
  amount_units: number;
  frequency: Frequency;
  billing_total: number | null;
  /** Cycles paid so far. */
  billing_current: number;
  /** When the next cycle is due; null once complete. */
  next_at: string | null;
  customer_id: string | null;
  payment_method: { type: string; vaulted_token: string };
  availability: { start_at: string; finish_at: string | null };
  retries: { retry_on_decline: boolean; amount: number };
  metadata: { key: string; value: string }[] | null;
  additional_data: Record<string, unknown> | null;
  trial: { billing_cycles: number; amount_units: number | null } | null;
  initial_payment_validation: boolean;
  latest: CycleCharge | null;
  created_at: string;
  updated_at: string;
}

/**
 * When billing starts: the requested `availability.start_at`, or now when it is absent or already
 * past. The spec leaves subscription creation open (§4: "create subscription: not shown"); upstream's create
 * example sends a past `start_at` with 12 monthly cycles and answers ACTIVE with `current` 1 and
 * `start_at` its creation time (Create Subscription), so the past cycles are
 * not charged: the first cycle is charged at creation and the schedule runs from now.
 */
export function billingStart(requestedStartAt: string | undefined, now: string): string {
  return requestedStartAt !== undefined && Date.parse(requestedStartAt) > Date.parse(now) ? requestedStartAt : now;
}

/** Smart retries wait a day between attempts. */
export const SMART_RETRY_INTERVAL_MS = 24 * 3600 * 1000;

/** Adds `n` frequency units in UTC; months and years clamp to the last day of a shorter month. */
export function addFrequency(iso: string, frequency: Frequency, n = 1): string {
  const d = new Date(iso);
  const steps = frequency.value * n;
  if (frequency.type === 'DAY' || frequency.type === 'WEEK') {
    return new Date(d.getTime() + steps * (frequency.type === 'DAY' ? 1 : 7) * 86400_000).toISOString();
  }
  const months = frequency.type === 'MONTH' ? steps : steps * 12;
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.toISOString();
}

export type PlannedCharge = { kind: 'cycle'; cycle: number } | { kind: 'smart_retry'; cycle: number } | { kind: 'manual_retry'; cycle: number };

/**
 * When the clock next has something to charge: the next cycle, or the next smart retry of a
 * failed one. Null when nothing ever will: complete, canceled, past `availability.finish_at`
 * (cycles beyond a subscription's end are never planned), or past due with no smart retry left.
 */
export function nextChargeAtMs(s: SubscriptionState): number | null {
  if (s.status === 'COMPLETED' || s.status === 'CANCELED') return null;
  if (s.status === 'PAST_DUE') {
    const latest = s.latest;
    if (!latest || latest.smart_retry_stopped || latest.smart_retries_left <= 0 || !s.retries.retry_on_decline || !latest.next_smart_retry_at) return null;
    return Date.parse(latest.next_smart_retry_at);
  }
  if (!s.next_at) return null;
  const at = Date.parse(s.next_at);
  return s.availability.finish_at && at >= Date.parse(s.availability.finish_at) ? null : at;
}

/** What falls due at `nowMs`: a smart retry of a failed cycle, or the next cycle; nothing otherwise. */
export function nextDueCharge(s: SubscriptionState, nowMs: number): PlannedCharge | undefined {
  const at = nextChargeAtMs(s);
  if (at === null || at > nowMs) return undefined;
  return s.status === 'PAST_DUE' ? { kind: 'smart_retry', cycle: (s.latest as CycleCharge).cycle } : { kind: 'cycle', cycle: s.billing_current + 1 };
}

/** The amount a cycle charges: the trial amount during the trial, the plan amount after. */
export function cycleAmountUnits(s: SubscriptionState, cycle: number): number {
  return s.trial && cycle <= s.trial.billing_cycles && s.trial.amount_units !== null ? s.trial.amount_units : s.amount_units;
}

function statusAfterPaid(s: SubscriptionState, paidCycles: number): SubscriptionState['status'] {
  if (s.billing_total !== null && paidCycles >= s.billing_total) return 'COMPLETED';
  return s.trial && paidCycles < s.trial.billing_cycles ? 'TRIALING' : 'ACTIVE';
}

const subEvent = (type: string, s: SubscriptionState, data: Record<string, unknown> = {}) =>
  event(type, 'subscription', s.id, s.account_id, { status: s.status, billing_cycles_current: s.billing_current, ...data });

/** What a cycle's payment comes to for the subscription: paid, declined, still pending, or an error (anything else). */
export function cycleResultOf(payment: Pick<PaymentState, 'status'>): CycleCharge['status'] {
  switch (payment.status) {
    case 'SUCCEEDED':
    case 'DECLINED':
    case 'PENDING':
      return payment.status;
    default:
      return 'ERROR';
  }
}

/** Applies the result of a charge to the subscription. */
export function applyCharge(s: SubscriptionState, charge: PlannedCharge, paymentId: string, result: CycleCharge['status'], now: string): { subscription: SubscriptionState; events: DomainEvent[] } {
  const previous = s.latest?.cycle === charge.cycle ? s.latest : null;
  const latest: CycleCharge = previous
    ? { ...previous, payment_ids: [...previous.payment_ids, paymentId], status: result }
    : { cycle: charge.cycle, payment_ids: [paymentId], status: result, manual_retries: [], smart_retries_left: s.retries.retry_on_decline ? s.retries.amount : 0, smart_retry_stopped: false, next_smart_retry_at: null };
  if (charge.kind === 'manual_retry') {
    latest.manual_retries = [...latest.manual_retries, { payment_id: paymentId, status: result }];
    latest.smart_retry_stopped = true;
  }
  if (charge.kind === 'smart_retry') latest.smart_retries_left -= 1;
  if (result === 'SUCCEEDED') {
    const paid = charge.cycle;
    const scheduledAt = s.next_at ?? now;
    const next: SubscriptionState = {
      ...s,
      latest: { ...latest, next_smart_retry_at: null },
      billing_current: paid,
      next_at: s.billing_total !== null && paid >= s.billing_total ? null : addFrequency(scheduledAt, s.frequency),
      updated_at: now,
    };
    next.status = statusAfterPaid(next, paid);
    const events = [subEvent('subscription.cycle_executed', next, { cycle: paid, payment_id: paymentId })];
    if (s.status === 'PAST_DUE') events.push(subEvent('subscription.active', next));
    if (next.status === 'COMPLETED') events.push(subEvent('subscription.complete', next));
    return { subscription: next, events };
  }
  latest.next_smart_retry_at = latest.smart_retries_left > 0 && !latest.smart_retry_stopped ? new Date(Date.parse(now) + SMART_RETRY_INTERVAL_MS).toISOString() : null;
  const next: SubscriptionState = { ...s, status: 'PAST_DUE', latest, updated_at: now };
  return { subscription: next, events: s.status === 'PAST_DUE' ? [] : [subEvent('subscription.past_due', next, { cycle: charge.cycle, payment_id: paymentId })] };
}

/**
 * §4.13: only the most recent payment can be retried, and a further manual retry only when the
 * previous one ended DECLINED. Refusals are INVALID_REQUEST (the spec wins over upstream).
 */
export function planManualRetry(s: SubscriptionState): PlannedCharge {
  const latest = s.latest;
  if (!latest || latest.status === 'SUCCEEDED') {
    throw new DomainError('INVALID_REQUEST', [`the most recent payment of subscription ${s.id} did not fail; there is nothing to retry`]);
  }
  const lastRetry = latest.manual_retries[latest.manual_retries.length - 1];
  if (lastRetry && lastRetry.status !== 'DECLINED') {
    throw new DomainError('INVALID_REQUEST', [`the previous manual retry of subscription ${s.id} ended ${lastRetry.status}; another retry is allowed only after a DECLINED one`]);
  }
  if (s.status === 'COMPLETED' || s.status === 'CANCELED') throw new DomainError('INVALID_REQUEST', [`subscription ${s.id} is ${s.status}`]);
  return { kind: 'manual_retry', cycle: latest.cycle };
}
