import { z } from 'zod';
import { CountryCode, OperatingCountry } from '../shared/countries.js';
import { Amount, AmountOut, Currency } from '../shared/money.js';
import { DateOnly, DateTime, Id36To64, OpenObject, Uuid, text } from '../shared/primitives.js';
import { Availability, AvailabilityOut, MetadataOut, OperatingAddress, PayerDocument, finishAfterStart, metadataList, phone } from '../shared/shapes.js';
import { AdditionalData, AdditionalDataOut, SellerDetails, TaxItem } from '../shared/additional-data.js';
import { listOf } from '../validation.js';

export const CHECKOUT_SESSION_METADATA_LIMIT = 120;
export const PAYMENT_LINK_METADATA_LIMIT = 50;
export const CHECKOUT_WORKFLOWS = ['SDK_CHECKOUT', 'CHECKOUT', 'SDK_SEAMLESS'] as const;

const InstallmentsPlan = z.object({
  plan_id: text(1, 255).optional(),
  plan: listOf(z.object({ installment: z.number().int().min(1).max(99), rate: z.number().min(0) })).optional(),
});

const Billing = z.object({
  label: text(1, 255),
  /** The spec types this amount as a string (a decimal in major units). */
  amount: z.string().regex(/^\d+(\.\d{1,4})?$/, 'must be a decimal string with at most 4 decimals'),
  interval_unit: z.enum(['year', 'month', 'day', 'hour', 'minute']),
  interval_count: z.number().int().min(1),
});

/** A checkout configured in the dashboard, which a checkout or customer session may name (Create Customer Session). */
export const CheckoutId = text(1, 64);

/** Request of §4.10. */
export const CreateCheckoutSessionBody = z.object({
  merchant_order_id: text(3, 255),
  payment_description: text(3, 255),
  country: OperatingCountry,
  account_id: Uuid,
  customer_id: Uuid.optional(),
  callback_url: text(3, 526).optional(),
  amount: Amount.optional(),
  /** Upstream's Create Checkout Session marks the alternative currency nullable. */
  alternative_amount: Amount.extend({ currency: Currency.nullable() }).optional(),
  metadata: metadataList(CHECKOUT_SESSION_METADATA_LIMIT).optional(),
  workflow: z.enum(CHECKOUT_WORKFLOWS).optional(),
  installments: InstallmentsPlan.optional(),
  recurring_payment: z
    .object({
      description: text(1, 255).optional(),
      management_url: text(3, 526).optional(),
      billing_agreement: text(1, 255).optional(),
      regular_billing: Billing.optional(),
      trial_billing: Billing.optional(),
    })
    .optional(),
  additional_data: AdditionalData.optional(),
  /** Binds the session to a checkout configured in the dashboard; without it the account's default checkout is used. */
  checkout_id: CheckoutId.optional(),
});
export type CreateCheckoutSessionBody = z.infer<typeof CreateCheckoutSessionBody>;

/**
 * Checkout session, §2.8. `metadata` is null when none was sent (§2.8: "metadata (nullable)"); the
 * other fields are always of upstream's types: `workflow` defaults to
 * SDK_CHECKOUT and `checkout_id` to the account's default checkout, `installments` is an object
 * whose `plan_id` and `plan` are null while the account's plan applies, and a `callback_url` or
 * `customer_id` not sent is `""` (Create Checkout Session).
 */
export const CheckoutSession = z.object({
  checkout_session: Uuid,
  merchant_order_id: z.string(),
  country: z.string(),
  payment_description: z.string(),
  customer_id: z.string(),
  callback_url: z.string(),
  amount: AmountOut.nullable(),
  created_at: DateTime,
  metadata: MetadataOut.nullable(),
  workflow: z.enum(CHECKOUT_WORKFLOWS),
  installments: z.object({
    plan_id: z.string().nullable(),
    plan: z.array(z.object({ installment: z.number().int(), rate: z.number() })).nullable(),
  }),
  checkout_id: z.string(),
});
export type CheckoutSession = z.infer<typeof CheckoutSession>;

/** Payment links take a country_code of up to 5 characters, payer's and seller's (Create Payment Link). */
const PaymentLinkPhone = phone(5);

const PaymentLinkCustomerPayer = z.object({
  id: text(1, 64).optional(),
  merchant_customer_id: text(3, 255).optional(),
  first_name: text(1, 255).optional(),
  last_name: text(1, 255).optional(),
  gender: text(1, 2).optional(),
  date_of_birth: z.string().length(10).optional(),
  email: text(3, 255).optional(),
  nationality: CountryCode.optional(),
  ip_address: text(1, 45).optional(),
  document: PayerDocument.optional(),
  phone: PaymentLinkPhone.optional(),
  billing_address: OperatingAddress.optional(),
  shipping_address: OperatingAddress.optional(),
});

/**
 * Risk signals upstream accepts on payment links on top of the §2.6 groups. The groups take the
 * lists a payment takes (an item's `category`, a tax's `type`, a seller's `industry`): upstream's
 * link document leaves them free text but points at the same references, and a link's data is
 * what the payments made through it carry, which Create Payment closes to those lists.
 */
const PaymentLinkAdditionalData = AdditionalData.extend({
  seller_details: SellerDetails.extend({ phone: PaymentLinkPhone.optional() }).nullable().optional(),
  device: z
    .object({
      locale: text(1, 20).optional(),
      geolocation: text(1, 255).optional(),
      event_uuid: text(1, 64).optional(),
      user_agent: text(1, 512).optional(),
    })
    .optional(),
  payer_risk_data: z
    .object({
      login_platform: text(1, 64).optional(),
      approved_transactions_2m: z.number().int().min(0).optional(),
      recent_transactions_3h: z.number().int().min(0).optional(),
      is_paid_user: z.boolean().optional(),
      account_creation_date: DateTime.or(DateOnly).optional(),
    })
    .optional(),
});

/** Request of §4.12. */
export const CreatePaymentLinkBody = z
  .object({
    account_id: Id36To64,
    country: OperatingCountry,
    amount: Amount,
    payment_method_types: listOf(text(3, 255)),
    description: text(3, 255).optional(),
    merchant_order_id: text(3, 255).optional(),
    capture: z.boolean().optional(),
    type: text(1, 255).optional(),
    status: text(1, 255).optional(),
    payment_method: OpenObject.optional(),
    installments_plan: OpenObject.optional(),
    timezone: text(1, 64).optional(),
    payments_number: z.number().int().min(0).optional(),
    split_payment_methods: z.boolean().optional(),
    taxes: listOf(TaxItem).optional(),
    customer_payer: PaymentLinkCustomerPayer.optional(),
    additional_data: PaymentLinkAdditionalData.optional(),
    callback_url: z.string().max(256).optional(),
    one_time_use: z.boolean().optional(),
    availability: Availability.optional(),
    metadata: metadataList(PAYMENT_LINK_METADATA_LIMIT).optional(),
    vault_on_success: z.boolean().optional(),
  })
  .superRefine(finishAfterStart);
export type CreatePaymentLinkBody = z.infer<typeof CreatePaymentLinkBody>;

export const PAYMENT_LINK_STATUSES = ['CREATED', 'USED', 'CANCELED', 'EXPIRED', 'ERROR'] as const;

/**
 * Payment link, §2.9. Upstream types `merchant_order_id` and `description` strings, not nullable
 * (Create Payment Link), and both are optional in the request (§4.12): one not sent is `""`,
 * as `callback_url` and `merchant_image` (docs/fidelity.md, "Absent values").
 */
export const PaymentLink = z.object({
  id: Uuid,
  code: z.string(),
  account_id: z.string(),
  account_code: z.string(),
  country: z.string(),
  availability: AvailabilityOut,
  status: z.string(),
  merchant_order_id: z.string(),
  description: z.string(),
  amount: AmountOut,
  capture: z.boolean(),
  metadata: MetadataOut.nullable(),
  split_payment_methods: z.boolean(),
  payment_method_types: z.array(z.string()),
  one_time_use: z.boolean(),
  payments: z.array(z.unknown()).nullable(),
  /** `""` when none was sent, as `merchant_image` (upstream's example answers `merchant_image: ""`). */
  callback_url: z.string(),
  installments_plan: OpenObject.nullable(),
  customer_payer: OpenObject.nullable(),
  taxes: z.array(OpenObject).nullable(),
  /** Always an object, its groups null when not sent (§2.9: "additional_data (airline, order, seller_details; each nullable)"). */
  additional_data: AdditionalDataOut,
  checkout_url: z.string(),
  payments_number: z.number().int(),
  merchant_image: z.string(),
  created_at: DateTime.optional(),
  updated_at: DateTime.optional(),
});
export type PaymentLink = z.infer<typeof PaymentLink>;
