import type { Payment, RetrievedPayment, Transaction, TransactionResult } from '@switchyard/contract';
import { alternativeDetail } from './alternative-method-view.js';
import { fromUnits } from './money.js';
import type { PaymentState, StoredCard, TransactionState } from './payment-state.js';

const PROVIDER_ID = 'SANDBOX_GATEWAY';

/**
 * ISO 8583 answers of the simulated provider, by the sandbox's response code (upstream's
 * provider_data carries `iso8583_response_code` / `_message`). A code not listed answers 05.
 */
const ISO8583: Record<string, readonly [string, string]> = {
  SUCCEEDED: ['00', 'Approved or completed successfully'],
  INSUFFICIENT_FUNDS: ['51', 'Not sufficient funds'],
  DO_NOT_HONOR: ['05', 'Do not honor'],
  EXPIRED_CARD: ['54', 'Expired card'],
  REPORTED_STOLEN: ['43', 'Stolen card, pick up'],
  INVALID_SECURITY_CODE: ['N7', 'Decline for CVV2 failure'],
  INVALID_CARD_DATA: ['14', 'Invalid card number'],
  ERROR: ['96', 'System malfunction'],
};
const ISO8583_DECLINE = ['05', 'Do not honor'] as const;

/** What a presentation of the payment includes beyond §2.5's fields. */
export interface PresentOptions {
  /** `transactions_history`; null when false (the retrieve route's default, as upstream's). */
  history?: boolean;
  /** Each transaction's `provider_data.raw_response`; left out when false (the retrieve route's default). */
  rawResponse?: boolean;
}

const NO_3DS = {
  version: null,
  electronic_commerce_indicator: null,
  cryptogram: null,
  transaction_id: null,
  directory_server_transaction_id: null,
  pares_status: null,
  acs_id: null,
};

function threeDSecureOf(card: StoredCard) {
  if (card.three_d_secure === 'none') return NO_3DS;
  // A frictionless or answered challenge is fully authenticated (ECI 05); an open challenge is still pending.
  const authenticated = card.three_d_secure !== 'challenge';
  return { ...NO_3DS, version: '2.2.0', electronic_commerce_indicator: authenticated ? '05' : null, pares_status: authenticated ? 'Y' : 'C' };
}

function cardDetail(p: PaymentState) {
  const card = p.payment_method.card;
  return {
    verify: false,
    capture: p.payment_method.capture,
    installments: p.payment_method.installments ?? 1,
    installments_plan_id: null,
    first_installment_deferral: 0,
    installments_type: '',
    installment_amount: null,
    installments_total_amount: null,
    soft_descriptor: p.payment_method.soft_descriptor ?? '',
    authorization_code: '',
    retrieval_reference_number: '',
    voucher: null,
    acquirer_reference_number: '',
    card_data: card
      ? {
          holder_name: card.holder_name ?? '',
          iin: card.iin,
          lfd: card.lfd,
          number_length: card.number_length,
          security_code_length: card.security_code_length,
          brand: card.brand,
          issuer_name: '',
          issuer_code: null,
          country_code: p.country,
          category: '',
          type: 'CREDIT',
          three_d_secure: threeDSecureOf(card),
          fingerprint: card.fingerprint,
          expiration_month: card.expiration_month,
          expiration_year: card.expiration_year,
        }
      : null,
    stored_credentials: { reason: '', usage: '', subscription_agreement_id: '', network_transaction_id: null },
  };
}

/** The payment method fields a payment and its transactions share (they differ in the detail's key). */
function methodOf(p: PaymentState) {
  return {
    vaulted_token: p.payment_method.vaulted_token ?? '',
    type: p.payment_method.type,
    vault_on_success: p.payment_method.vault_on_success,
    token: p.payment_method.token ?? '',
    parent_payment_method_type: null,
  };
}

/** The simulated provider's own answer, in the shape of upstream's `raw_response` examples. */
function rawResponseOf(p: PaymentState, t: TransactionState) {
  return {
    amount: { currency: p.currency, value: fromUnits(t.amount_units) },
    reference: t.id,
    status: t.status,
    response_code: t.response_code,
    response_message: t.response_message,
  };
}

function providerData(p: PaymentState, t: TransactionState, rawResponse: boolean): Transaction['provider_data'] {
  const [isoCode, isoMessage] = ISO8583[t.response_code] ?? ISO8583_DECLINE;
  return {
    id: PROVIDER_ID,
    transaction_id: t.id,
    account_id: p.account_id,
    status: t.status,
    sub_status: p.sub_status,
    status_detail: '',
    response_code: t.response_code,
    response_message: t.response_message,
    ...(rawResponse ? { raw_response: rawResponseOf(p, t) } : {}),
    third_party_transaction_id: '',
    third_party_account_id: '',
    iso8583_response_code: isoCode,
    iso8583_response_message: isoMessage,
  };
}

export function presentTransaction(p: PaymentState, t: TransactionState, rawResponse = true): Transaction {
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
    reason: t.reason ?? '',
    // Upstream's charge transactions carry the payment's description and reference.
    description: t.description ?? p.description,
    merchant_reference: t.merchant_reference ?? p.merchant_reference ?? p.merchant_order_id,
    provider_data: providerData(p, t, rawResponse),
    connection_data: { id: PROVIDER_ID, name: PROVIDER_ID },
    created_at: t.created_at,
    updated_at: t.updated_at,
    merchant_advice_code: null,
    merchant_advice_code_message: null,
  };
}


/**
 * The API view of a payment (§2.5, with upstream's answer where §2.5 leaves a choice; docs/sandbox-payments.md).
 * `focus` is the transaction the operation produced, answered as `transactions` (default: the latest).
 */
export function presentPayment(p: PaymentState, focusTransactionId?: string, options: PresentOptions = {}): Payment {
  const { history = true, rawResponse = true } = options;
  const latest = p.transactions[p.transactions.length - 1];
  const focus = p.transactions.find((t) => t.id === focusTransactionId) ?? latest;
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
    // §2.5 lets checkout be null; upstream answers a payment without a session with an empty one.
    checkout: { session: p.checkout_session ?? '', sdk_action_required: p.sub_status === 'WAITING_ADDITIONAL_STEP' },
    payment_method: { ...methodOf(p), payment_method_detail: alternativeDetail(p) ?? { card: cardDetail(p) } },
    customer_payer: p.customer_payer ?? {},
    // An object even when none was sent: upstream types it one, and its groups objects (so none is listed).
    additional_data: p.additional_data ?? {},
    taxes: null,
    transactions: focus ? presentTransaction(p, focus, rawResponse) : null,
    transactions_history: history && latest ? presentTransaction(p, latest, rawResponse) : null,
    split: [],
    split_marketplace: p.split_marketplace,
    callback_url: p.callback_url ?? '',
    workflow: p.workflow,
    metadata: p.metadata,
    fraud_screening: null,
    subscription_code: p.subscription_id,
    payment_link_id: p.payment_link?.id ?? '',
    payment_link_code: p.payment_link?.code ?? '',
    // No routing rule runs in the sandbox: condition 0 is upstream's default id.
    routing_rules: { smart_routing: false, monitors: false, condition: { id: 0, name: null, description: null } },
    simplified_mode: false,
  };
}

/**
 * The retrieve route's view: the payment with every one of its transactions in the order they
 * happened (the state appends each one), as upstream's Retrieve Payment by ID answers; the spec
 * does not define that route. Every other answer carries one transaction (`presentPayment`).
 */
export function presentRetrievedPayment(p: PaymentState, options: Required<PresentOptions>): RetrievedPayment {
  return { ...presentPayment(p, undefined, options), transactions: p.transactions.map((t) => presentTransaction(p, t, options.rawResponse)) };
}

/** The answer of cancel-or-refund (§4.6) and capture: the transaction's fields, its amount as an object, and the payment. */
export function presentTransactionResult(p: PaymentState, t: TransactionState): TransactionResult {
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
