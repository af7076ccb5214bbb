import { z } from 'zod';
import { Mandate } from '../shared/mandate.js';
import { DateTime, Uuid, text } from '../shared/primitives.js';

/** A bank transfer's `account_type`: upstream's payment, refund and cancel-or-refund files close it to these. */
export const BANK_ACCOUNT_TYPES = ['CHECKINGS', 'SAVINGS'] as const;

/**
 * Every `payment_method.type` of upstream's Create Payment (its
 * `payment_method.type` enum), in its order.
 */
export const PAYMENT_METHOD_TYPES = [
  'ACUOTAZ', 'ADDI', 'APPLE_PAY', 'BANCOLOMBIA_TOKEN_BOX', 'BANCOLOMBIA_TRANSFER', 'CARD', 'CASH', 'CODI',
  'DAVIPLATA', 'EFECTY', 'GOOGLE_PAY', 'MERCADO_PAGO_CHECKOUT_PRO', 'MERCADO_PAGO_WALLET', 'NEQUI', 'NU_PAY',
  'NU_PAY_ENROLLMENT', 'OXXO', 'PAYPAL', 'PAYVALIDA', 'PIX', 'PSE', 'SAFETYPAY', 'SPEI', 'TARJETA_CLAVE',
  'WEBPAY', 'WIBOND', 'CRYPTO',
] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

/**
 * How the payer pays: `card` and `wallet` (a token) are decided at once; the others wait for the
 * payer: `qr` (an instant-payment QR payload), `voucher` (a ticket paid in cash: number and
 * barcode), `bank_transfer` (a transfer to the account and reference given) and `redirect` (the
 * payer approves on a page).
 */
export type MethodFlow = 'card' | 'wallet' | 'qr' | 'voucher' | 'bank_transfer' | 'redirect';

/** The key of `payment_method_detail` (and of a transaction's `detail`) a method answers with. */
export type DetailKey = 'card' | 'wallet' | 'ticket' | 'bank_transfer' | 'bnpl';

/**
 * What a refund of the method may be: `partial` (full or partial, as a card) or `to_bank_account`
 * (the payer paid cash: the refund needs the bank account to send the money to, which upstream's
 * refund request carries as `payment_method.detail.bank_transfer`).
 */
export type RefundPolicy = 'partial' | 'to_bank_account';

export interface MethodProfile {
  flow: MethodFlow;
  detail: DetailKey;
  /** The transaction `category` upstream answers (CARD, WALLET, TICKET, BANK_TRANSFER, BNPL). */
  category: string;
  /** The currencies the method settles in; null when it is not tied to one market. */
  currencies: readonly string[] | null;
  refund: RefundPolicy;
}

const profile = (flow: MethodFlow, detail: DetailKey, currencies: readonly string[] | null, refund: RefundPolicy = 'partial'): MethodProfile => ({
  flow,
  detail,
  category: { card: 'CARD', wallet: 'WALLET', ticket: 'TICKET', bank_transfer: 'BANK_TRANSFER', bnpl: 'BNPL' }[detail],
  currencies,
  refund,
});

/** Each method's flow, answer shape, market and refund policy (docs/sandbox-payments.md has the table). */
export const PAYMENT_METHODS: Record<PaymentMethodType, MethodProfile> = {
  CARD: profile('card', 'card', null),
  APPLE_PAY: profile('wallet', 'wallet', null),
  GOOGLE_PAY: profile('wallet', 'wallet', null),
  PIX: profile('qr', 'bank_transfer', ['BRL']),
  CODI: profile('qr', 'bank_transfer', ['MXN']),
  CASH: profile('voucher', 'ticket', null, 'to_bank_account'),
  OXXO: profile('voucher', 'ticket', ['MXN'], 'to_bank_account'),
  EFECTY: profile('voucher', 'ticket', ['COP'], 'to_bank_account'),
  PAYVALIDA: profile('voucher', 'ticket', ['COP'], 'to_bank_account'),
  SPEI: profile('bank_transfer', 'bank_transfer', ['MXN']),
  SAFETYPAY: profile('bank_transfer', 'bank_transfer', null),
  PSE: profile('redirect', 'bank_transfer', ['COP']),
  BANCOLOMBIA_TRANSFER: profile('redirect', 'bank_transfer', ['COP']),
  BANCOLOMBIA_TOKEN_BOX: profile('redirect', 'bank_transfer', ['COP']),
  WEBPAY: profile('redirect', 'bank_transfer', ['CLP']),
  TARJETA_CLAVE: profile('redirect', 'bank_transfer', ['USD']),
  ADDI: profile('redirect', 'bnpl', ['COP']),
  ACUOTAZ: profile('redirect', 'bnpl', ['PEN']),
  WIBOND: profile('redirect', 'bnpl', null),
  NEQUI: profile('redirect', 'wallet', ['COP']),
  DAVIPLATA: profile('redirect', 'wallet', ['COP']),
  NU_PAY: profile('redirect', 'wallet', ['BRL']),
  NU_PAY_ENROLLMENT: profile('redirect', 'wallet', ['BRL']),
  MERCADO_PAGO_CHECKOUT_PRO: profile('redirect', 'wallet', null),
  MERCADO_PAGO_WALLET: profile('redirect', 'wallet', null),
  PAYPAL: profile('redirect', 'wallet', null),
  CRYPTO: profile('redirect', 'wallet', null),
};

/** The request detail keys: the answer-only `bnpl` has none, so BNPL methods take no detail. */
const REQUEST_DETAIL_KEYS: readonly DetailKey[] = ['card', 'wallet', 'ticket', 'bank_transfer'];

/** The detail key a method's request may carry, or null when it takes none. */
export function requestDetailOf(type: PaymentMethodType): DetailKey | null {
  const key = PAYMENT_METHODS[type].detail;
  return REQUEST_DETAIL_KEYS.includes(key) ? key : null;
}

const StoredCredentials = z.object({
  reason: z.enum(['CARD_ON_FILE', 'SUBSCRIPTION', 'UNSCHEDULED_CARD_ON_FILE']).optional(),
  usage: z.enum(['FIRST', 'USED']).optional(),
  subscription_agreement_id: text(1, 255).optional(),
  network_transaction_id: text(1, 255).optional(),
});

/** `detail.wallet` of a create-payment request (upstream's fields). */
export const WalletDetailIn = z.object({
  // The wallet's encrypted payment data, as the device hands it over (a JSON text for Google Pay).
  payment_token: text(1, 20_000).optional(),
  expires_at: DateTime.optional(),
  capture: z.boolean().optional(),
  soft_descriptor: text(1, 255).optional(),
  domain_url: text(1, 526).optional(),
  verify: z.boolean().optional(),
  stored_credentials: StoredCredentials.optional(),
  card_data: z.object({ lfd: z.string().regex(/^\d{4}$/, 'must be the 4 last digits').optional() }).optional(),
});

/** `detail.ticket` of a create-payment request (upstream's fields). */
export const TicketDetailIn = z.object({
  benefit_type: z.enum(['PRIVATE', 'JUNAEB']).optional(),
  expires_at: DateTime.optional(),
});

/** `detail.bank_transfer` of a create-payment request (upstream's fields). */
export const BankTransferDetailIn = z.object({
  pre_debit_notification_id: Uuid.optional(),
  soft_descriptor: text(1, 255).optional(),
  expires_at: DateTime.optional(),
  account_type: z.enum(BANK_ACCOUNT_TYPES).optional(),
  bank_account: text(3, 255).optional(),
  bank_id: text(1, 255).optional(),
  routing_number: text(3, 255).optional(),
  code: text(1, 255).optional(),
  branch: text(1, 255).optional(),
  branch_digit: text(1, 255).optional(),
  beneficiary_name: text(3, 255).optional(),
  beneficiary_type: z.enum(['INDIVIDUAL', 'ENTITY']).optional(),
  third_party_token_id: text(1, 255).optional(),
  account_holder_type: z.enum(['INDIVIDUAL', 'COMPANY']).optional(),
  bank_account_mask_number: text(1, 64).optional(),
  mandate: Mandate.optional(),
});

/** The request details beside `card`, to spread into `payment_method.detail`. */
export const alternativeDetailsIn = {
  wallet: WalletDetailIn.optional(),
  ticket: TicketDetailIn.optional(),
  bank_transfer: BankTransferDetailIn.optional(),
};

const str = z.string().nullable();

/** `payment_method_detail.ticket`: a voucher to pay in cash (upstream's alternative-method answer). */
export const TicketDetailOut = z.object({
  type: str,
  benefit_type: str,
  date_of_expiration: str,
  payment_instruction: str,
  provider_number: str,
  provider_barcode: str,
  provider_logo: str,
  provider_format: str,
  redirect_url: str,
  expires_at: str,
});

/**
 * `payment_method_detail.bank_transfer` (upstream's retrieve-payment fields), plus `code`: the
 * QR payload of an instant payment (PIX "copy and paste"), and `expires_at`.
 */
export const BankTransferDetailOut = z.object({
  provider_image: str,
  account_type: str,
  bank_name: str,
  beneficiary_name: str,
  bank_account: str,
  bank_account_2: str,
  beneficiary_document_type: str,
  beneficiary_document: str,
  payment_instruction: str,
  redirect_url: str,
  bank_account_mask_number: str,
  code: str,
  reference: str,
  expires_at: str,
});

/** `payment_method_detail.wallet` (upstream's wallet answer, the fields the sandbox knows). */
export const WalletDetailOut = z.object({
  verify: z.boolean(),
  capture: z.boolean(),
  authorization_code: str,
  card_data: z.object({ lfd: str, brand: str }).nullable(),
  redirect_url: str,
  expires_at: str,
});

/** `payment_method_detail.bnpl` (upstream's retrieve-payment fields). */
export const BnplDetailOut = z.object({
  installments: z.number().int().nullable(),
  provider_image: str,
  redirect_url: str,
  customer_data: z.record(z.unknown()).nullable(),
});

/** The answer details beside `card`, to spread into `payment_method_detail` and a transaction's `detail`. */
export const alternativeDetailsOut = {
  wallet: WalletDetailOut.nullable().optional(),
  ticket: TicketDetailOut.nullable().optional(),
  bank_transfer: BankTransferDetailOut.nullable().optional(),
  bnpl: BnplDetailOut.nullable().optional(),
};

/** The answer details beside `card`, as a named type (payments name it rather than spell it out). */
export interface AlternativeDetails {
  wallet?: z.infer<typeof WalletDetailOut> | null;
  ticket?: z.infer<typeof TicketDetailOut> | null;
  bank_transfer?: z.infer<typeof BankTransferDetailOut> | null;
  bnpl?: z.infer<typeof BnplDetailOut> | null;
}

/** What the payer did (sandbox control API, or the payer on the sandbox's payment page). */
export const PAYER_OUTCOMES = ['SUCCEEDED', 'DECLINED', 'EXPIRED'] as const;
export type PayerOutcome = (typeof PAYER_OUTCOMES)[number];

export const PayerOutcomeBody = z.object({ outcome: z.enum(PAYER_OUTCOMES) });
export type PayerOutcomeBody = z.infer<typeof PayerOutcomeBody>;

interface MethodIssue {
  path: (string | number)[];
  message: string;
}

interface MethodRequest {
  type?: PaymentMethodType;
  token?: string;
  vaulted_token?: string;
  detail?: Partial<Record<DetailKey, unknown>> & { card?: { card_data?: unknown } };
}

/**
 * The request rules of a non-card method: it is paid through its own detail, never through a
 * card, a one-time token or an enrolled card; and it takes no other method's detail.
 */
export function alternativeMethodIssues(pm: MethodRequest & { type: PaymentMethodType }): MethodIssue[] {
  const issues: MethodIssue[] = [];
  const allowed = requestDetailOf(pm.type);
  const pays = allowed ? `detail.${allowed}` : 'no detail';
  if (pm.token !== undefined || pm.vaulted_token !== undefined) {
    issues.push({ path: ['payment_method'], message: `type ${pm.type} is paid with ${pays}; token and vaulted_token pay cards` });
  }
  if (pm.detail?.card?.card_data !== undefined) {
    issues.push({ path: ['payment_method', 'detail', 'card', 'card_data'], message: `type ${pm.type} is not a card; it is paid with ${pays}` });
  }
  for (const key of ['wallet', 'ticket', 'bank_transfer'] as const) {
    if (pm.detail?.[key] !== undefined && key !== allowed) {
      issues.push({ path: ['payment_method', 'detail', key], message: `type ${pm.type} takes ${pays}, not detail.${key}` });
    }
  }
  return issues;
}
