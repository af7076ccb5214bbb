import type { Subscription } from '@switchyard/contract';
import { fromUnits } from './money.js';
import type { SubscriptionState } from './subscriptions.js';

export function presentSubscription(s: SubscriptionState): Subscription {
  return {
    id: s.id,
    name: s.name,
    account_id: s.account_id,
    country: s.country,
    // Kept null when not sent; answered as the strings §2.10 types them.
    description: s.description ?? '',
    merchant_reference: s.merchant_reference ?? '',
    soft_descriptor: s.soft_descriptor,
    subscription_agreement_id: s.subscription_agreement_id,
    status: s.status,
    amount: { currency: s.currency, value: fromUnits(s.amount_units) },
    frequency: s.frequency,
    billing_cycles: { total: s.billing_total, current: s.billing_current, next_at: s.next_at },
    customer_payer: s.customer_id ? { id: s.customer_id } : null,
    payment_method: s.payment_method,
    availability: s.availability,
    retries: s.retries,
    metadata: s.metadata,
    additional_data: s.additional_data,
    trial_period: s.trial
      ? { billing_cycles: s.trial.billing_cycles, amount: s.trial.amount_units === null ? null : { currency: s.currency, value: fromUnits(s.trial.amount_units) } }
      : null,
    initial_payment_validation: s.initial_payment_validation,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}
