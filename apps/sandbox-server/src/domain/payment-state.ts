import type { DetailKey, MethodFlow, RefundPolicy } from '@switchyard/contract';
import type { CardBrand } from './cards.js';

/** A transaction as the sandbox keeps it; amounts in units of 0.0001. */
export interface TransactionState {
  id: string;
  type: 'PURCHASE' | 'AUTHORIZE' | 'CAPTURE' | 'REFUND' | 'CANCEL' | 'CHARGEBACK';
  status: 'SUCCEEDED' | 'PENDING' | 'DECLINED' | 'ERROR' | 'CREATED' | 'WON' | 'LOST' | 'EXPIRED';
  amount_units: number;
  response_code: string;
  response_message: string;
  reason: string | null;
  description: string | null;
  merchant_reference: string | null;
  created_at: string;
  updated_at: string;
}

/** What the sandbox keeps about a non-card method of a payment. */
export interface AlternativeMethodState {
  flow: MethodFlow;
  detail: DetailKey;
  category: string;
  refund: RefundPolicy;
  /** When the payer can no longer pay; null for wallets. */
  expires_at: string | null;
  /** The code of the sandbox's payer page (`/pay/{code}`); null for wallets. */
  page_code: string | null;
  redirect_url: string | null;
  /** The provider's reference: a voucher number, a transfer reference, the PIX transaction id. */
  reference: string | null;
  qr_code: string | null;
  barcode: string | null;
  instruction: string | null;
  /** The account the payer transfers to (a CLABE for SPEI). */
  bank_account: string | null;
  beneficiary_name: string | null;
  /** Echoed from the request. */
  benefit_type: string | null;
  account_type: string | null;
  bank_account_mask_number: string | null;
  wallet: { has_token: boolean; lfd: string | null; verify: boolean } | null;
}

export interface StoredCard {
  iin: string;
  lfd: string;
  number_length: number;
  security_code_length: number | null;
  brand: CardBrand;
  fingerprint: string;
  holder_name: string | null;
  expiration_month: number;
  expiration_year: number;
  /** `challenge` while the payer has not answered the issuer's challenge; `challenge_passed` once authenticated by it. */
  three_d_secure: 'none' | 'frictionless' | 'challenge' | 'challenge_passed';
}

export interface DisputeState {
  chargeback_transaction_id: string;
  /** What the payment was before the chargeback, restored when the dispute is won. */
  previous_status: string;
  previous_sub_status: string;
  evidence_count: number;
}

/** A payment as the sandbox keeps it. Never holds a full card number or a security code. */
export interface PaymentState {
  id: string;
  account_id: string;
  description: string;
  country: string;
  status: string;
  sub_status: string;
  merchant_order_id: string;
  merchant_reference: string | null;
  created_at: string;
  updated_at: string;
  currency: string;
  amount_units: number;
  authorized_units: number;
  captured_units: number;
  refunded_units: number;
  charged_back_units: number;
  /** Null for charges the sandbox makes itself (subscription cycles). */
  checkout_session: string | null;
  subscription_id: string | null;
  payment_method: {
    type: string;
    vaulted_token: string | null;
    token: string | null;
    vault_on_success: boolean;
    capture: boolean;
    installments: number | null;
    soft_descriptor: string | null;
    card: StoredCard | null;
    /** A method other than a card (absent on payments stored before they existed). */
    alternative?: AlternativeMethodState | null;
  };
  customer_payer: Record<string, unknown> | null;
  additional_data: Record<string, unknown> | null;
  callback_url: string | null;
  workflow: string;
  metadata: { key: string; value: string }[];
  split_marketplace: Record<string, unknown>[];
  transactions: TransactionState[];
  /** A refund started and not finished: another one is refused meanwhile. */
  refund_in_progress: { transaction_id: string; amount_units: number } | null;
  dispute: DisputeState | null;
  /**
   * The payment link a hosted checkout paid this with (absent on payments stored before links took
   * payments), and whether it is one-time (absent on payments stored before: the link says).
   */
  payment_link?: { id: string; code: string; one_time_use?: boolean } | null;
}
