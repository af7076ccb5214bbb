import type { CancelOrRefundResult, Payment, Transaction } from '@switchyard/contract';
import { alternativeDetail } from './alternative-method-view.js';
import { fromUnits } from './money.js';
import type { PaymentState, TransactionState } from './payment-state.js';

const PROVIDER_ID = 'SANDBOX_GATEWAY';

function cardDetail(p: PaymentState) {
  const card = p.payment_method.card;
  return {
    verify: false,
    capture: p.payment_method.capture,
    installments: p.payment_method.installments,
    installments_plan_id: null,
    first_installment_deferral: null,
    installments_type: null,
    installment_amount: null,
    installments_total_amount: null,
    soft_descriptor: p.payment_method.soft_descriptor,
    authorization_code: null,
    retrieval_reference_number: null,
    voucher: null,
    acquirer_reference_number: null,
    card_data: card
      ? {
          holder_name: card.holder_name,
          iin: card.iin,
          lfd: card.lfd,
          number_length: card.number_length,
          security_code_length: card.security_code_length,
          brand: card.brand,
          issuer_name: null,
          issuer_code: null,
          country_code: p.country,
          category: null,
          type: 'CREDIT',
          three_d_secure:
            card.three_d_secure === 'none'
              ? null
              : { version: '2.2.0', electronic_commerce_indicator: card.three_d_secure === 'frictionless' ? '05' : null },
          fingerprint: card.fingerprint,
          expiration_month: card.expiration_month,
          expiration_year: card.expiration_year,
        }
      : null,
    stored_credentials: null,
  };
}

/** The payment method fields a payment and its transactions share (they differ in the detail's key). */
function methodOf(p: PaymentState) {
  return {
    vaulted_token: p.payment_method.vaulted_token,
    type: p.payment_method.type,
    vault_on_success: p.payment_method.vault_on_success,
    token: p.payment_method.token,
    parent_payment_method_type: null,
  };
}

export function presentTransaction(p: PaymentState, t: TransactionState): Transaction {
  return {
    id: t.id,
    type: t.type,
    status: t.status,
    category: p.payment_method.alternative?.category ?? (p.payment_method.card ? 'CARD' : p.payment_method.type),
    amount: fromUnits(t.amount_units),
    provider_id: PROVIDER_ID,
    payment_method: { ...methodOf(p), detail: alternativeDetail(p) ?? { card: cardDetail(p) } },
    response_code: t.response_code,
    response_message: t.response_message,
    reason: t.reason,
    description: t.description,
    merchant_reference: t.merchant_reference,
    provider_data: {
      id: PROVIDER_ID,
      transaction_id: t.id,
      account_id: p.account_id,
      status: t.status,
      response_code: t.response_code,
      response_message: t.response_message,
    },
    connection_data: { id: null, name: PROVIDER_ID },
    created_at: t.created_at,
    updated_at: t.updated_at,
    merchant_advice_code: null,
    merchant_advice_code_message: null,
  };
}

/** The API view of a payment; `focus` is the transaction the operation produced (default: the latest). */
export function presentPayment(p: PaymentState, focusTransactionId?: string): Payment {
  const focus = p.transactions.find((t) => t.id === focusTransactionId) ?? p.transactions[p.transactions.length - 1];
  return {
    id: p.id,
    account_id: p.account_id,
    description: p.description,
    country: p.country,
    status: p.status,
    sub_status: p.sub_status,
    merchant_order_id: p.merchant_order_id,
    created_at: p.created_at,
    updated_at: p.updated_at,
    amount: {
      currency: p.currency,
      value: fromUnits(p.amount_units),
      captured: fromUnits(p.captured_units),
      refunded: fromUnits(p.refunded_units),
      currency_conversion: null,
    },
    checkout: p.checkout_session ? { session: p.checkout_session, sdk_action_required: p.sub_status === 'WAITING_ADDITIONAL_STEP' } : null,
    payment_method: { ...methodOf(p), payment_method_detail: alternativeDetail(p) ?? { card: cardDetail(p) } },
    customer_payer: p.customer_payer,
    additional_data: p.additional_data,
    transactions: focus ? presentTransaction(p, focus) : null,
    transactions_history: p.transactions.map((t) => presentTransaction(p, t)),
    split_marketplace: p.split_marketplace,
    callback_url: p.callback_url,
    workflow: p.workflow,
    metadata: p.metadata,
    fraud_screening: null,
    subscription_code: p.subscription_id,
    payment_link_id: null,
    routing_rules: { smart_routing: false, monitors: false, condition: null },
    simplified_mode: false,
  };
}

/** §4.6's response: the transaction's fields, its amount as an object, and the payment. */
export function presentCancelOrRefund(p: PaymentState, t: TransactionState): CancelOrRefundResult {
  const tx = presentTransaction(p, t);
  return {
    id: tx.id,
    type: tx.type,
    status: t.type === 'REFUND' && p.status === 'REFUNDED' ? 'REFUNDED' : tx.status,
    category: tx.category,
    amount: { currency: p.currency, value: fromUnits(t.amount_units), captured: fromUnits(p.captured_units), refunded: fromUnits(p.refunded_units) },
    merchant_reference: tx.merchant_reference,
    created_at: tx.created_at,
    updated_at: tx.updated_at,
    provider_data: tx.provider_data,
    response_code: tx.response_code,
    response_message: tx.response_message,
    payment: presentPayment(p, t.id),
  };
}
