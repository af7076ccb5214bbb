import type { Subscription } from '@switchyard/contract';
import { isRecord, withoutKey } from './absent-values.js';
import { fromUnits } from './money.js';
import type { SubscriptionState } from './subscriptions.js';

/**
 * The subscription as every answer, webhook payload and inspector view shows it. What the sandbox
 * holds no value for follows docs/fidelity.md, "Absent values": the strings §2.10 types are `""`
 * (`description`, `merchant_reference`, `billing_cycles.next_at` once the last cycle is paid), and
 * the objects the request did not send (`customer_payer`, `trial_period`, a trial's `amount`) are
 * left out, never `null` (§2.10 marks none of them nullable).
 */
export function presentSubscription(s: SubscriptionState): Subscription {
  return {
    id: s.id,
    name: s.name,
    account_id: s.account_id,
    country: s.country,
    // Kept null when not sent; answered as the strings §2.10 types them.
    description: s.description ?? '',
    merchant_reference: s.merchant_reference ?? '',
    soft_descriptor: s.soft_descriptor ?? '',
    subscription_agreement_id: s.subscription_agreement_id ?? agreementIdOf(s.id),
    status: s.status,
    amount: { currency: s.currency, value: fromUnits(s.amount_units) },
    frequency: s.frequency,
    billing_cycles: { total: s.billing_total, current: s.billing_current, next_at: s.next_at ?? '' },
    ...(s.customer_id ? { customer_payer: { id: s.customer_id } } : {}),
    payment_method: s.payment_method,
    availability: s.availability,
    retries: s.retries,
    metadata: s.metadata,
    additional_data: s.additional_data,
    ...(s.trial ? { trial_period: trialPeriodOf(s.trial, s.currency) } : {}),
    initial_payment_validation: s.initial_payment_validation,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** The trial sent: its cycles, and its amount only when it sent one (its cycles then charge the subscription's `amount`). */
function trialPeriodOf(trial: NonNullable<SubscriptionState['trial']>, currency: string): NonNullable<Subscription['trial_period']> {
  return {
    billing_cycles: trial.billing_cycles,
    ...(trial.amount_units === null ? {} : { amount: { currency, value: fromUnits(trial.amount_units) } }),
  };
}

/**
 * The agreement id of a subscription stored by 0.2.0, which issued none: `sa_` and the
 * subscription's own UUID, the form upstream's ids take (Create Subscription), and the same at
 * every read, so a client that keeps it finds it again.
 */
const agreementIdOf = (subscriptionId: string): string => `sa_${subscriptionId}`;

const STRINGS = new Set(['description', 'merchant_reference']);
const OBJECTS = new Set(['customer_payer', 'trial_period']);

/**
 * A subscription as an earlier version presented it (a webhook envelope kept since), as
 * `presentSubscription` answers it now, its keys in their stored order: `null` strings are `""`
 * (`description`, `merchant_reference`, `billing_cycles.next_at`), `null` objects not sent
 * (`customer_payer`, `trial_period`, a trial's `amount`) are left out, and the `soft_descriptor`
 * and `subscription_agreement_id` that 0.2.0 did not keep are added at the end.
 */
export function storedSubscriptionAsAnswered(subscription: Record<string, unknown>): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(subscription)) {
    if (value === null && OBJECTS.has(key)) continue;
    if (value === null && STRINGS.has(key)) entries.push([key, '']);
    else if (key === 'billing_cycles' && isRecord(value) && value.next_at === null) entries.push([key, { ...value, next_at: '' }]);
    else if (key === 'trial_period' && isRecord(value) && value.amount === null) entries.push([key, withoutKey(value, 'amount')]);
    else entries.push([key, value]);
  }
  if (!('soft_descriptor' in subscription)) entries.push(['soft_descriptor', '']);
  if (!('subscription_agreement_id' in subscription) && typeof subscription.id === 'string') entries.push(['subscription_agreement_id', agreementIdOf(subscription.id)]);
  // fromEntries defines each key as an own property, whatever its name.
  return Object.fromEntries(entries);
}

