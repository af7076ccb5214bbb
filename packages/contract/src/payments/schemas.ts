import { z } from 'zod';
import { CountryCode, OperatingCountry } from '../shared/countries.js';
import { Amount, PaymentAmount } from '../shared/money.js';
import { Base64, DateOnly, DateTime, Id36To64, OpenObject, refuse, text, Uuid } from '../shared/primitives.js';
import { Address, AddressOut, DocumentOut, MetadataOut, OperatingAddress, PayerDocument, Phone, PhoneOut, metadataList } from '../shared/shapes.js';
import { AdditionalData, AdditionalDataOut, SellerDetails } from '../shared/additional-data.js';
import { Mandate } from '../shared/mandate.js';
import { listOf, queryBoolean } from '../validation.js';
import { BANK_ACCOUNT_TYPES, PAYMENT_METHOD_TYPES, alternativeDetailsIn, alternativeDetailsOut, alternativeMethodIssues, type AlternativeDetails } from './alternative-methods.js';

export const REFUND_REASONS = ['DUPLICATE', 'FRAUDULENT', 'REQUESTED_BY_CUSTOMER', 'REVERSE'] as const;
export const RefundReason = z.enum(REFUND_REASONS);

export const PAYMENT_STATUSES = [
  'CREATED', 'READY_TO_PAY', 'PENDING', 'VERIFIED', 'EXPIRED', 'REJECTED', 'DECLINED', 'SUCCEEDED',
  'REFUNDED', 'CANCELED', 'IN_DISPUTE', 'CHARGEBACK', 'ERROR', 'FRAUD',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const TRANSACTION_TYPES = [
  'PURCHASE', 'AUTHORIZE', 'CAPTURE', 'REFUND', 'CANCEL', 'VERIFY', 'CHARGEBACK', 'THREE_D_SECURE',
  'FRAUD_SCREENING', 'SPLIT_TRANSFER', 'SPLIT_TRANSFER_REVERSE',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const TRANSACTION_STATUSES = [
  'SUCCEEDED', 'WON', 'CREATED', 'PENDING', 'DECLINED', 'REJECTED', 'ERROR', 'EXPIRED', 'LOST', 'PREVENTED',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Dispute evidence categories (upstream's list; the spec leaves them "not shown"). */
export const EVIDENCE_CATEGORIES = [
  'CANCEL_POLICY', 'CUSTOMER_INTERACTION', 'OTHERS', 'PAYMENT_DETAIL', 'PROOF_OF_AUTHENTICITY',
  'PROOF_OF_DELIVERY', 'PROOF_OF_SERVICE', 'RECEIPT', 'REFUND_POLICY', 'SERVICE_AGREEMENT',
  'TERMS_AND_CONDITIONS',
] as const;

/** §8: dispute evidence is at most 1 MB once decoded. */
export const EVIDENCE_MAX_BYTES = 1024 * 1024;

const nullableString = z.string().nullable().optional();

/**
 * The answer's 3DS data. Always an object, its fields null when no authentication took place, as
 * upstream answers (Create Payment), so code reading `three_d_secure.version` works for every
 * card payment.
 */
const ThreeDSecureOut = z.object({
  version: nullableString,
  electronic_commerce_indicator: nullableString,
  cryptogram: nullableString,
  transaction_id: nullableString,
  directory_server_transaction_id: nullableString,
  pares_status: nullableString,
  acs_id: nullableString,
});

/**
 * Masked card data inside a payment: iin and lfd only, never the full number (§2.5). Upstream types
 * holder_name, issuer_name, category and type strings: empty when unknown.
 */
export const PaymentCardData = z.object({
  holder_name: z.string(),
  iin: z.string(),
  lfd: z.string(),
  number_length: z.number().int(),
  security_code_length: z.number().int().nullable(),
  brand: z.string(),
  issuer_name: z.string(),
  issuer_code: nullableString,
  country_code: nullableString,
  category: z.string(),
  type: z.string(),
  three_d_secure: ThreeDSecureOut,
  fingerprint: z.string().nullable(),
  expiration_month: z.number().int(),
  expiration_year: z.number().int(),
});

/** Always an object in upstream's answers; strings empty when the payment sent none. */
const StoredCredentialsOut = z.object({
  reason: z.string(),
  usage: z.string(),
  subscription_agreement_id: z.string(),
  network_transaction_id: nullableString,
});

/**
 * Card detail (§2.5). `installments` is 1 and `first_installment_deferral` 0 for a single
 * payment; the reference strings are empty until a provider gives them (upstream's types).
 */
export const CardDetail = z.object({
  verify: z.boolean(),
  capture: z.boolean(),
  installments: z.number().int(),
  installments_plan_id: nullableString,
  first_installment_deferral: z.number().int(),
  installments_type: z.string(),
  installment_amount: z.number().nullable().optional(),
  installments_total_amount: z.number().nullable().optional(),
  soft_descriptor: z.string(),
  authorization_code: z.string(),
  retrieval_reference_number: z.string(),
  voucher: nullableString,
  acquirer_reference_number: z.string(),
  card_data: PaymentCardData.nullable(),
  stored_credentials: StoredCredentialsOut,
});

/**
 * `payment_method_detail` of a payment (`detail` of a transaction): the card's, or the alternative
 * method's. Typed by a named interface so that the routes' declared types name it instead of
 * spelling it out wherever a payment appears (tsc refuses declarations past a size).
 */
export interface PaymentMethodDetail extends AlternativeDetails {
  card?: z.infer<typeof CardDetail> | null;
}
const PaymentMethodDetailOut: z.ZodType<PaymentMethodDetail> = z.object({ card: CardDetail.nullable().optional(), ...alternativeDetailsOut });

/** What a payment's method and its transactions' methods share (§2.5, §2.7); tokens are empty strings when absent. */
const PaymentMethodFields = z.object({
  vaulted_token: z.string(),
  type: z.string(),
  vault_on_success: z.boolean(),
  token: z.string(),
  parent_payment_method_type: z.string().nullable(),
});

export const PaymentMethodOut = PaymentMethodFields.extend({ payment_method_detail: PaymentMethodDetailOut.nullable() });

/** A transaction's payment method: the payment's, with `detail` for `payment_method_detail` (§2.7). */
export const TransactionPaymentMethod = PaymentMethodFields.extend({ detail: PaymentMethodDetailOut.nullable() });

/**
 * The provider's answer to one transaction (§2.7's list). Upstream types the strings strings
 * (empty when the provider gave none) and `raw_response` an object.
 */
export const ProviderData = z.object({
  id: z.string(),
  transaction_id: z.string(),
  account_id: z.string(),
  status: z.string(),
  sub_status: z.string(),
  status_detail: z.string(),
  response_message: z.string(),
  response_code: z.string(),
  raw_request: z.unknown().optional(),
  raw_response: z.record(z.string(), z.unknown()).optional(),
  third_party_transaction_id: z.string(),
  third_party_account_id: z.string(),
  iso8583_response_code: z.string(),
  iso8583_response_message: z.string(),
  merchant_advice_code: nullableString,
  merchant_advice_code_message: nullableString,
  reason_code: nullableString,
  reason_description: nullableString,
});

/** Transaction inside a payment, §2.7. */
export const Transaction = z.object({
  id: Uuid,
  type: z.string(),
  status: z.string(),
  category: z.string(),
  amount: z.number(),
  provider_id: z.string(),
  payment_method: TransactionPaymentMethod.nullable(),
  response_code: z.string(),
  response_message: z.string(),
  reason: z.string(),
  description: z.string(),
  merchant_reference: z.string(),
  provider_data: ProviderData.nullable(),
  connection_data: z.object({ id: z.string(), name: z.string() }).nullable(),
  created_at: DateTime,
  updated_at: DateTime,
  merchant_advice_code: z.string().nullable(),
  merchant_advice_code_message: z.string().nullable(),
});
export type Transaction = z.infer<typeof Transaction>;

/** Browser data for 3DS and fraud screening (upstream's fields). */
const BrowserInfo = z
  .object({
    user_agent: nullableString,
    accept_header: nullableString,
    accept_content: nullableString,
    accept_browser: nullableString,
    color_depth: nullableString,
    screen_height: nullableString,
    screen_width: nullableString,
    javascript_enabled: z.boolean().nullable().optional(),
    java_enabled: z.boolean().nullable().optional(),
    browser_time_difference: nullableString,
    language: nullableString,
    platform: nullableString,
  })
  .passthrough();

/** The payer (§2.5 lists it an object): a payment without one answers an empty object, as upstream types it. */
const CustomerPayerOut = z.object({
  id: nullableString,
  merchant_customer_id: nullableString,
  first_name: nullableString,
  last_name: nullableString,
  gender: nullableString,
  date_of_birth: nullableString,
  email: nullableString,
  nationality: nullableString,
  ip_address: nullableString,
  device_fingerprint: nullableString,
  device_fingerprints: z.array(z.object({ provider_id: nullableString, id: nullableString })).nullable().optional(),
  browser_info: BrowserInfo.nullable().optional(),
  document: DocumentOut.nullable().optional(),
  phone: PhoneOut.nullable().optional(),
  billing_address: AddressOut.nullable().optional(),
  shipping_address: AddressOut.nullable().optional(),
  merchant_customer_created_at: nullableString,
  geolocation: z.object({ latitude: z.string().nullable().optional(), longitude: z.string().nullable().optional() }).nullable().optional(),
});

/**
 * Payment, §2.5. `transactions` is one transaction object, the one the operation produced (§2.5
 * types it "object (a transaction, see 2.7)", §4.2 "whose transactions object is the REFUND
 * transaction"); only the retrieve route answers a list (`RetrievedPayment`).
 * `transactions_history` is an object as upstream's Create Payment types it (§2.5: nullable,
 * "typed only as object"): the latest transaction.
 * Nullable objects of §2.5 (`checkout`, `additional_data`) are answered as objects, as upstream does.
 */
export const Payment = z.object({
  id: Uuid,
  account_id: z.string(),
  description: z.string(),
  country: z.string(),
  status: z.string(),
  sub_status: z.string(),
  merchant_order_id: z.string(),
  created_at: DateTime,
  updated_at: DateTime,
  amount: PaymentAmount,
  checkout: z.object({ session: z.string(), sdk_action_required: z.boolean() }).nullable(),
  payment_method: PaymentMethodOut,
  customer_payer: CustomerPayerOut,
  additional_data: AdditionalDataOut.nullable(),
  /** Upstream answers `taxes` (null in all its examples) and `split` (an empty list) beside the §2.5 fields; neither is a request field. */
  taxes: z.unknown(),
  transactions: Transaction.nullable(),
  transactions_history: Transaction.nullable(),
  split: z.array(OpenObject),
  split_marketplace: z.array(OpenObject),
  callback_url: z.string(),
  workflow: z.string(),
  metadata: MetadataOut,
  fraud_screening: z.record(z.string(), z.unknown()).nullable(),
  subscription_code: z.string().nullable(),
  payment_link_id: z.string(),
  payment_link_code: z.string(),
  routing_rules: z
    .object({
      smart_routing: z.boolean(),
      monitors: z.boolean(),
      condition: z.object({ id: z.number().int(), name: z.string().nullable(), description: z.string().nullable() }),
    })
    .nullable(),
  simplified_mode: z.boolean(),
});
export type Payment = z.infer<typeof Payment>;

/**
 * The retrieve route's answer. The spec does not define `GET /payments/{payment_id}` (§4 lists 14
 * endpoints, retrieve is not one), so upstream governs there: Retrieve Payment by ID answers
 * `transactions` as an array of every transaction of the payment, oldest first (every one of its 16 examples;
 * the 3DS one lists THREE_D_SECURE then PURCHASE). Every other field is the payment's.
 */
export const RetrievedPayment = Payment.extend({ transactions: z.array(Transaction) });
export type RetrievedPayment = z.infer<typeof RetrievedPayment>;

/**
 * Query of the retrieve route, as upstream's Retrieve Payment by ID documents it: both default to
 * false. `transactions_history` adds the payment's `transactions_history` ("includes the
 * transactions history"; upstream's retrieve schema does not type it, §2.5 types it only as a
 * nullable object, so it is the latest transaction as in every other answer); `raw_response` adds
 * the provider's raw answer (`provider_data.raw_response`) to each transaction.
 */
export const GetPaymentQuery = z.object({
  transactions_history: queryBoolean().optional(),
  raw_response: queryBoolean().optional(),
});
export type GetPaymentQuery = z.infer<typeof GetPaymentQuery>;


/** The payer fields a refund or cancel may carry (§4.2, §4.6; shape from upstream). */
export const CustomerPayerRequest = z.object({
  id: text(1, 64).optional(),
  merchant_customer_id: text(3, 255).optional(),
  first_name: text(3, 255).optional(),
  last_name: text(3, 255).optional(),
  gender: z.enum(['M', 'F', 'NB', 'NA', 'NK', 'U']).optional(),
  date_of_birth: DateOnly.optional(),
  email: text(3, 255).optional(),
  nationality: CountryCode.optional(),
  ip_address: text(1, 45).optional(),
  document: PayerDocument.optional(),
  phone: Phone.optional(),
  billing_address: OperatingAddress.optional(),
  shipping_address: OperatingAddress.optional(),
});

export const SplitMarketplaceItem = z.object({
  /** Empty for a line no recipient takes (upstream's split example sends its COMMISSION line so): a plain string upstream. */
  recipient_id: z.string().max(64).optional(),
  provider_recipient_id: text(1, 255).optional(),
  description: text(3, 255).optional(),
  type: z.enum(['PURCHASE', 'PAYMENTFEE', 'VAT', 'COMMISSION', 'MARKETPLACE', 'SHIPPING']),
  merchant_reference: text(3, 255).optional(),
  recipient_type: z.enum(['MEAL', 'FOOD', 'MULTI_BENEFITS', 'FLEET']).optional(),
  amount: Amount,
  liability: z
    .object({
      processing_fee: z.enum(['MERCHANT', 'RECIPIENT', 'SHARED']).optional(),
      chargebacks: z.boolean().optional(),
    })
    .optional(),
});

const ResponseAdditionalData = z.object({
  receipt: z.boolean().optional(),
  receipt_language: z.enum(['ES', 'EN', 'PT']).optional(),
});

const BankTransferPaymentMethod = z.object({
  detail: z
    .object({
      bank_transfer: z
        .object({
          account_type: z.enum(BANK_ACCOUNT_TYPES).optional(),
          bank_name: text(3, 255).optional(),
          bank_id: text(3, 255).optional(),
          beneficiary_name: text(3, 255).optional(),
          bank_account: text(3, 255).optional(),
          beneficiary_document_type: text(3, 255).optional(),
          beneficiary_document: text(3, 255).optional(),
          reference: text(1, 255).optional(),
          bank_account_mask_number: text(1, 64).optional(),
          mandate: Mandate.optional(),
        })
        .optional(),
    })
    .optional(),
});

/** What a refund (§4.2) and a cancel-or-refund (§4.6) both accept after their own leading fields. */
const refundDetails = {
  amount: Amount.optional(),
  split_marketplace: listOf(SplitMarketplaceItem).optional(),
  simplified_mode: z.boolean().optional(),
  response_additional_data: ResponseAdditionalData.optional(),
  customer_payer: CustomerPayerRequest.optional(),
  payment_method: BankTransferPaymentMethod.optional(),
};

/** Request of §4.2. */
export const RefundBody = z.object({
  merchant_reference: text(3, 255),
  description: text(3, 255).optional(),
  reason: RefundReason.optional(),
  ...refundDetails,
});
export type RefundBody = z.infer<typeof RefundBody>;

/** Request of §4.6: the reason is required, the merchant reference is not. */
export const CancelOrRefundBody = z.object({
  reason: RefundReason,
  description: text(3, 255).optional(),
  merchant_reference: text(3, 255).optional(),
  ...refundDetails,
});
export type CancelOrRefundBody = z.infer<typeof CancelOrRefundBody>;

/**
 * The transaction an operation produced, with its fields at the top and the payment inside: the
 * answer of cancel-or-refund (§4.6) and of capture (upstream's Capture Authorization answers
 * the same envelope, `type: CAPTURE`). Upstream sends `amount` here as an amount object (value of
 * the transaction, currency, captured, refunded), not a bare number.
 */
export const TransactionResult = z.object({
  id: Uuid,
  type: z.string(),
  status: z.string(),
  category: z.string().nullable(),
  amount: PaymentAmount.omit({ currency_conversion: true }),
  merchant_reference: z.string().nullable(),
  created_at: DateTime,
  updated_at: DateTime,
  provider_data: ProviderData.nullable(),
  response_code: z.string().nullable(),
  response_message: z.string().nullable(),
  payment: Payment,
});
export type TransactionResult = z.infer<typeof TransactionResult>;

/** Number of bytes a padded base64 string decodes to. */
export function base64DecodedLength(content: string): number {
  const padding = content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0;
  return (content.length / 4) * 3 - padding;
}

export const EvidenceItem = z.object({
  file_name: text(3, 255),
  content_type: z.literal('application/pdf'),
  content_category: z.enum(EVIDENCE_CATEGORIES),
  content: Base64.refine((content) => base64DecodedLength(content) <= EVIDENCE_MAX_BYTES, {
    message: `must decode to at most ${EVIDENCE_MAX_BYTES} bytes (1 MB)`,
  }),
});

/** Request of §4.9. */
export const DisputeBody = z.object({
  account_id: Uuid,
  evidence: listOf(EvidenceItem).min(1),
});
export type DisputeBody = z.infer<typeof DisputeBody>;

const CardDataForPayment = z.object({
  number: z.string().regex(/^\d{8,19}$/, 'must be 8 to 19 digits'),
  expiration_month: z.number().int().min(1).max(12),
  expiration_year: z.number().int().min(0).max(9999),
  security_code: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits').optional(),
  holder_name: text(3, 26).optional(),
  type: z.enum(['CREDIT', 'DEBIT', 'PREPAID']).optional(),
});

/**
 * A token a provider issued for the card, for this one payment (upstream's
 * `external_providers_data`): the sandbox holds no card behind it, and pays as with a card the
 * provider keeps (docs/sandbox-payments.md, "Provider tokens").
 */
export const ExternalProviderToken = z.object({
  connection_id: Uuid,
  provider_id: text(1, 255),
  provider_token: text(1, 255),
});

/** Upstream's bounds: one to five tokens, one per connection of a provider. */
const EXTERNAL_PROVIDER_TOKENS_MAX = 5;

/**
 * Back-to-back workflows, which pay without a checkout session. Upstream's Create Payment describes
 * `checkout` as "Required when `workflow` is defined as `SDK_CHECKOUT` or is not sent. not required
 * for `DIRECT` or `REDIRECT` payments", and its DIRECT examples send none; its `workflow` defaults
 * to SDK_CHECKOUT.
 */
const WORKFLOWS_WITHOUT_CHECKOUT: readonly string[] = ['DIRECT', 'REDIRECT'];

/**
 * A payment's additional_data: upstream's Create Payment requires a seller's `address`
 * (`address_line_1`, `city`, `country`) when `seller_details` is sent; its payment link and
 * subscription documents do not.
 */
const PaymentAdditionalData = AdditionalData.extend({ seller_details: SellerDetails.extend({ address: Address }).nullable().optional() });

/** What a card payment is paid with, one of them (an empty token or vaulted_token counts as not sent). */
const CARD_SOURCES = 'token, vaulted_token, detail.card.card_data or detail.card.external_providers_data';

/** Request of POST /v1/payments (supporting; modelled from upstream's Create Payment). */
export const CreatePaymentBody = z
  .object({
    account_id: Id36To64,
    merchant_order_id: text(3, 255),
    description: text(3, 255),
    country: OperatingCountry,
    amount: Amount,
    // Required unless the workflow is back to back: see WORKFLOWS_WITHOUT_CHECKOUT below.
    checkout: z.object({ session: Uuid }).optional(),
    payment_method: z.object({
      type: z.enum(PAYMENT_METHOD_TYPES).optional(),
      // Plain strings upstream, whose examples send "" for "none": "" is taken as not sent.
      token: Uuid.or(z.literal('')).optional(),
      vaulted_token: z.string().max(64).optional(),
      vault_on_success: z.boolean().optional(),
      detail: z
        .object({
          card: z
            .object({
              capture: z.boolean().optional(),
              installments: z.number().int().min(1).max(99).optional(),
              first_installment_deferral: z.number().int().min(0).optional(),
              soft_descriptor: text(1, 25).optional(),
              verify: z.boolean().optional(),
              card_data: CardDataForPayment.optional(),
              external_providers_data: listOf(ExternalProviderToken, EXTERNAL_PROVIDER_TOKENS_MAX).min(1).optional(),
              stored_credentials: z
                .object({
                  reason: z.enum(['CARD_ON_FILE', 'SUBSCRIPTION', 'UNSCHEDULED_CARD_ON_FILE']).optional(),
                  usage: z.enum(['FIRST', 'USED']).optional(),
                  subscription_agreement_id: text(1, 255).optional(),
                  network_transaction_id: text(1, 255).optional(),
                })
                .optional(),
            })
            .optional(),
          ...alternativeDetailsIn,
        })
        .optional(),
    }),
    merchant_reference: text(3, 255).optional(),
    customer_payer: CustomerPayerRequest.optional(),
    additional_data: PaymentAdditionalData.optional(),
    workflow: z.enum(['SDK_CHECKOUT', 'CHECKOUT', 'REDIRECT', 'DIRECT', 'SDK_SEAMLESS']).optional(),
    callback_url: text(3, 526).optional(),
    split_marketplace: listOf(SplitMarketplaceItem).optional(),
    metadata: metadataList(120).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.checkout === undefined && !WORKFLOWS_WITHOUT_CHECKOUT.includes(body.workflow ?? 'SDK_CHECKOUT')) {
      refuse(ctx, ['checkout'], `is required unless workflow is ${WORKFLOWS_WITHOUT_CHECKOUT.join(' or ')} (workflow ${body.workflow ?? 'not sent, so SDK_CHECKOUT'})`);
    }
    const pm = body.payment_method;
    if (pm.type !== undefined && pm.type !== 'CARD') {
      for (const issue of alternativeMethodIssues({ ...pm, type: pm.type })) ctx.addIssue({ code: z.ZodIssueCode.custom, ...issue });
      return;
    }
    const tokens = pm.detail?.card?.external_providers_data;
    const sources = [pm.token, pm.vaulted_token, pm.detail?.card?.card_data, tokens].filter((x) => x !== undefined && x !== '');
    if (sources.length === 0) {
      refuse(ctx, ['payment_method'], `needs one of ${CARD_SOURCES}`);
    }
    if (sources.length > 1) {
      refuse(ctx, ['payment_method'], `takes only one of ${CARD_SOURCES}`);
    }
    const pairs = (tokens ?? []).map((t) => `${t.provider_id} ${t.connection_id}`);
    pairs.forEach((pair, i) => {
      if (pairs.indexOf(pair) !== i) {
        refuse(ctx, ['payment_method', 'detail', 'card', 'external_providers_data', i], `repeats provider_id and connection_id of item ${pairs.indexOf(pair)}: each pair once`);
      }
    });
  });
export type CreatePaymentBody = z.infer<typeof CreatePaymentBody>;

/**
 * Request of the supporting capture route (capture an authorization, full or partial). The spec
 * has no capture endpoint, so upstream's Capture Authorization governs: it requires
 * `merchant_reference` (3 to 255), `reason` (free text such as PRODUCT_CONFIRMED) and `amount`,
 * even for a full capture (its "Full Capture" example sends the whole amount).
 */
export const CaptureBody = z.object({
  merchant_reference: text(3, 255),
  amount: Amount,
  reason: text(1, 255),
  simplified_mode: z.boolean().optional(),
});
export type CaptureBody = z.infer<typeof CaptureBody>;

export const PaymentIdParams = z.object({ payment_id: Uuid });
export const RefundParams = z.object({ id: Uuid, transaction_id: Uuid });
export const PaymentTransactionParams = z.object({ payment_id: Uuid, transaction_id: Uuid });
