import type { PaymentState } from './payment-state.js';

type PaymentMethod = PaymentState['payment_method'];

/**
 * What one new payment says about itself; everything left out takes the value a payment without
 * it has (no checkout session, no subscription, a direct workflow, a captured card charge ...).
 */
export interface DraftInput {
  id: string;
  now: string;
  account_id: string;
  description: string;
  country: string;
  merchant_order_id: string;
  currency: string;
  amount_units: number;
  payment_method: Pick<PaymentMethod, 'type' | 'vaulted_token' | 'card'> & Partial<Pick<PaymentMethod, 'vault_on_success' | 'capture' | 'installments' | 'soft_descriptor' | 'alternative'>>;
  merchant_reference?: string | null;
  checkout_session?: string | null;
  subscription_id?: string | null;
  customer_payer: Record<string, unknown> | null;
  additional_data: Record<string, unknown> | null;
  callback_url?: string | null;
  workflow?: string;
  metadata?: PaymentState['metadata'] | null;
  split_marketplace?: PaymentState['split_marketplace'];
  payment_link?: PaymentState['payment_link'];
}

/**
 * A payment before its first attempt (`createPayment` in payments.ts decides the outcome): the one
 * builder of the payments the API creates and of the ones the sandbox charges for subscriptions.
 * Nothing authorized, captured or refunded yet; no transactions. One-time tokens are never kept.
 */
export function paymentDraft(d: DraftInput): PaymentState {
  const pm = d.payment_method;
  return {
    id: d.id,
    account_id: d.account_id,
    description: d.description,
    country: d.country,
    status: 'CREATED',
    sub_status: 'CREATED',
    merchant_order_id: d.merchant_order_id,
    merchant_reference: d.merchant_reference ?? null,
    created_at: d.now,
    updated_at: d.now,
    currency: d.currency,
    amount_units: d.amount_units,
    authorized_units: 0,
    captured_units: 0,
    refunded_units: 0,
    charged_back_units: 0,
    checkout_session: d.checkout_session ?? null,
    subscription_id: d.subscription_id ?? null,
    payment_method: {
      type: pm.type,
      vaulted_token: pm.vaulted_token,
      token: null,
      vault_on_success: pm.vault_on_success ?? false,
      capture: pm.capture ?? true,
      installments: pm.installments ?? null,
      soft_descriptor: pm.soft_descriptor ?? null,
      card: pm.card,
      alternative: pm.alternative ?? null,
    },
    customer_payer: d.customer_payer,
    additional_data: d.additional_data,
    callback_url: d.callback_url ?? null,
    workflow: d.workflow ?? 'DIRECT',
    metadata: d.metadata ?? [],
    split_marketplace: d.split_marketplace ?? [],
    transactions: [],
    refund_in_progress: null,
    dispute: null,
    payment_link: d.payment_link ?? null,
  };
}
