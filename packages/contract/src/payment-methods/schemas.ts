import { z } from 'zod';
import { OperatingCountry } from '../shared/countries.js';
import { Amount, Currency } from '../shared/money.js';
import { Mandate } from '../shared/mandate.js';
import { DateTime, Id36To64, OpenObject, refuse, text, Uuid } from '../shared/primitives.js';
import { Payment } from '../payments/schemas.js';
import { Customer } from '../customers/schemas.js';
import { Document, metadataList } from '../shared/shapes.js';

/**
 * §4.1 payment_method_type: CARD, `<BRAND>_WALLET`, `<BRAND>_TOKENBOX`, `<BRAND>_ENROLLMENT`,
 * `<BRAND>_ENROLLABLE`, or one bare brand-named value. The brands are neutralised in the spec,
 * so the contract accepts the form (upper-case identifiers) rather than a closed list.
 */
export const EnrollablePaymentMethodType = text(3, 255).regex(
  /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/,
  'must be CARD or an upper-case payment method type such as <BRAND>_WALLET, <BRAND>_TOKENBOX or <BRAND>_ENROLLMENT',
);

/** §4.3 type: CARD or `<BRAND>_ENROLLMENT`. */
export const DirectEnrollmentType = text(3, 255).regex(
  /^(?:CARD|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_ENROLLMENT)$/,
  'must be CARD or a value of the form <BRAND>_ENROLLMENT',
);

/** verify: upstream's shape (vault_on_success, currency, metadata). */
export const VerifyRequest = z.object({
  vault_on_success: z.boolean(),
  currency: Currency.optional(),
  metadata: metadataList(50).optional(),
});

/** Request of §4.1. */
export const EnrollInSessionBody = z.object({
  account_id: Uuid,
  payment_method_type: EnrollablePaymentMethodType,
  country: OperatingCountry,
  verify: VerifyRequest.optional(),
  /** Keep the vaulted card current through the card networks' updater service. */
  account_updater: z.boolean().optional(),
});
export type EnrollInSessionBody = z.infer<typeof EnrollInSessionBody>;

export const CardDataRequest = z.object({
  holder_name: text(3, 26).optional(),
  expiration_month: z.number().int().min(1).max(12),
  /** Two digits, as the spec says (28 for 2028). */
  expiration_year: z.number().int().min(0).max(99),
  number: z.string().regex(/^\d{8,19}$/, 'must be 8 to 19 digits'),
  security_code: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits').optional(),
  brand: text(1, 64).optional(),
  scheme: text(1, 64).optional(),
  soft_descriptor: text(1, 25).optional(),
  authentication_method: z.enum(['FIDO2', 'OWN_CREDENTIALS', 'FEDERATED_ID']).optional(),
});

/** Bank account enrollment details (`<BRAND>_ENROLLMENT` types such as ACH). */
const BankTransferEnrollment = z.object({
  account_type: z.enum(['CHECKINGS', 'SAVINGS']).optional(),
  account_holder_type: z.enum(['INDIVIDUAL', 'ENTITY']).optional(),
  bank_id: text(1, 255).optional(),
  bank_name: text(1, 255).optional(),
  bank_account: text(1, 255).optional(),
  beneficiary_name: text(1, 255),
  branch: text(1, 64).optional(),
  branch_digit: text(1, 8).optional(),
  routing_number: text(1, 64),
  code: text(1, 64).optional(),
  reference: text(1, 255).optional(),
  bank_account_mask_number: text(1, 64).optional(),
  mandate: Mandate.optional(),
});

/** Request of §4.3. */
export const EnrollDirectBody = z
  .object({
    account_id: Id36To64,
    country: OperatingCountry,
    type: DirectEnrollmentType,
    workflow: z.literal('DIRECT').default('DIRECT'),
    card_data: CardDataRequest.optional(),
    callback_url: text(3, 255).optional(),
    provider_data: z
      .object({
        id: text(1, 255),
        token_source: z.enum(['PROVIDER_API', 'MIGRATION_FILE', 'PROVIDER_TOKEN']).optional(),
        payment_method_token: text(1, 255).optional(),
        connection_id: Uuid.optional(),
      })
      .optional(),
    verify: VerifyRequest.optional(),
    account_updater: z.boolean().optional(),
    token: Uuid.optional(),
    parent_type: text(3, 255).optional(),
    customer_payer: z
      .object({
        code: text(1, 255).optional(),
        organization_customer_external_id: text(1, 255).optional(),
        email: text(3, 255).email().optional(),
        ip_address: z.string().ip().optional(),
        browser_info: z.object({ user_agent: text(1, 512).optional() }).optional(),
        document: Document.optional(),
      })
      .optional(),
    payment_method: z
      .object({
        type: text(3, 255).optional(),
        vault_on_success: z.boolean().optional(),
        vault_only: z.boolean().optional(),
        detail: z.object({ bank_transfer: BankTransferEnrollment.optional() }).optional(),
      })
      .optional(),
    recurring_payment: z
      .object({
        regular_billing: z
          .object({
            label: text(1, 255).optional(),
            amount: Amount.optional(),
            interval_unit: z.enum(['DAY', 'WEEK', 'MONTH', 'YEAR']).optional(),
            interval_count: z.number().int().min(1).optional(),
          })
          .optional(),
      })
      .optional(),
  })
  .superRefine((body, ctx) => {
    // A card cannot be vaulted from nothing: without card data the only path is a token migration.
    if (body.type === 'CARD' && !body.card_data && !body.provider_data) {
      refuse(ctx, ['card_data'], 'is required when type is CARD (unless provider_data migrates an existing token)');
    }
    if (body.type !== 'CARD' && body.card_data) {
      refuse(ctx, ['card_data'], 'is only accepted when type is CARD');
    }
  });
export type EnrollDirectBody = z.input<typeof EnrollDirectBody>;

/**
 * The zero-amount VERIFY payment a direct card enrollment with `verify.vault_on_success` makes,
 * as upstream shows it (Enroll Payment Method (direct), "With
 * Verify"): a payment's own fields, with an amount and VERIFY transactions of its own shape.
 */
export const VerifyPayment = Payment.pick({
  id: true,
  account_id: true,
  description: true,
  country: true,
  status: true,
  sub_status: true,
  merchant_order_id: true,
  created_at: true,
  updated_at: true,
  metadata: true,
}).extend({
  amount: z.object({ currency: z.string(), value: z.number(), refunded: z.number(), captured: z.number() }),
  transactions: z.array(
    z.object({
      id: z.string(),
      type: z.literal('VERIFY'),
      status: z.string(),
      response_code: z.string(),
      response_message: z.string(),
      category: z.string(),
      merchant_reference: z.string(),
      provider_data: z.object({ id: z.string(), transaction_id: z.string(), status: z.string(), response_message: z.string() }),
      created_at: DateTime,
      updated_at: DateTime,
    }),
  ),
});
export type VerifyPayment = z.infer<typeof VerifyPayment>;

/** `currency` only when the verification has one (upstream's "With Verify"); `payment` null when none was made. */
export const EnrollmentVerify = z.object({
  vault_on_success: z.boolean(),
  currency: z.string().optional(),
  payment: VerifyPayment.nullable(),
});

/** What an enrolled method answers whichever flow created it (§2.3 and §2.4 share these). */
export const EnrolledMethodSummary = z.object({
  name: z.string(),
  description: z.string(),
  type: z.string(),
  category: z.string(),
  country: z.string(),
  status: z.string(),
});

/** Enrolled payment method created through a customer session, §2.3. */
export const SessionEnrolledPaymentMethod = z
  .object({ id: z.string(), account_id: z.string() })
  .merge(EnrolledMethodSummary)
  .extend({
    created_at: DateTime,
    updated_at: DateTime,
    enrollment: z.object({ session: z.string(), sdk_required_action: z.boolean() }),
    provider: z.object({ id: z.string(), type: z.string(), provider_status: z.string().nullable() }),
    /**
     * The session's customer as a payer, its fields as the customer answers them (`""` or left out
     * when not sent, docs/fidelity.md "Absent values"): upstream types it an object of strings and
     * objects (Enroll Payment Method). Left out only where the customer is not
     * known.
     */
    customer_payer: Customer.pick({ first_name: true, last_name: true, email: true, gender: true, date_of_birth: true, document: true, phone: true, billing_address: true }).optional(),
    verify: EnrollmentVerify,
    preferred: z.boolean().nullable(),
    /** Set once the SDK step enrolled the method; it is what payments and subscriptions charge. */
    vaulted_token: z.string().nullable().optional(),
    customer_id: z.string().optional(),
  });
export type SessionEnrolledPaymentMethod = z.infer<typeof SessionEnrolledPaymentMethod>;

/** Masked card data of a vaulted card (§2.4): never the full number or security code. */
export const VaultedCardData = z.object({
  iin: z.string(),
  lfd: z.string(),
  expiration_month: z.number().int(),
  expiration_year: z.number().int(),
  number_length: z.number().int(),
  security_code_length: z.number().int(),
  brand: z.string(),
  /** Spec §2.4 lists it without "nullable" (unlike issuer_code). */
  issuer: z.string(),
  issuer_code: z.string().nullable(),
  category: z.string().nullable(),
  type: z.string().nullable(),
  fingerprint: z.string().nullable(),
  /** `""` when the card was sent without one: upstream types it a string (docs/fidelity.md, "Absent values"). */
  holder_name: z.string().optional(),
  country_code: z.string().nullable().optional(),
});

/**
 * `card_data` of a method that holds no card the sandbox saw (a bank account, a migrated token):
 * an empty object, never null (spec §2.4 types card_data an object; so does upstream). Typed a
 * record of nothing, so reading `card_data.lfd` compiles and gives undefined for such a method.
 */
export const NoCardData = z.record(z.string(), z.never());

/** Enrolled payment method created directly, §2.4. */
export const DirectEnrolledPaymentMethod = z
  .object({ idempotency_key: z.string() })
  .merge(EnrolledMethodSummary)
  .extend({
    sub_status: z.string().nullable(),
    vaulted_token: z.string(),
    /** Spec §2.4: a string, not nullable; empty when the request sent none. */
    callback_url: z.string(),
    /** `REDIRECT_URL` while the payer still has to confirm on `redirect_url`, else null. */
    action: z.string().nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    card_data: z.union([VaultedCardData, NoCardData]),
    last_successfully_used: z.unknown().nullable(),
    last_successfully_used_at: z.string().nullable(),
    preferred: z.boolean().nullable(),
    verify: EnrollmentVerify,
    customer_id: z.string().optional(),
    /** The request's `parent_type`, else the method's category (upstream: CARD for a card). */
    parent_type: z.string(),
    /**
     * Where the payer confirms a method that waits for them (READY_TO_ENROLL); `""` otherwise.
     * Upstream's card example answers null where its schema types a string: the schema is
     * followed (docs/fidelity.md, "Absent values").
     */
    redirect_url: z.string(),
    provider_data: OpenObject,
  });
export type DirectEnrolledPaymentMethod = z.infer<typeof DirectEnrolledPaymentMethod>;

export const CustomerSessionParams = z.object({ customer_session: Uuid });
export const CustomerIdPathParams = z.object({ customer_id: text(36, 64) });
