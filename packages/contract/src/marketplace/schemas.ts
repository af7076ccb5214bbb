import { z } from 'zod';
import { CountryCode } from '../shared/countries.js';
import { Amount, AmountOut, AmountValue, Currency } from '../shared/money.js';
import { Base64, DateOnly, DateTime, Id36To64, refuse, text, Uuid } from '../shared/primitives.js';
import { AddressOut, DocumentOut, MetadataOut, Phone, PhoneOut, address, metadataList, nullableString } from '../shared/shapes.js';
import { listOf } from '../validation.js';

export const NATIONAL_ENTITIES = ['INDIVIDUAL', 'ENTITY'] as const;
export const ENTITY_TYPES = ['GOVERNMENTAL', 'PUBLIC', 'NON_PROFIT', 'PRIVATE'] as const;
/** Upstream's list (Create Recipient, documentation[].content_category); the spec names none. */
export const RECIPIENT_DOCUMENT_CATEGORIES = [
  'ACCOUNT_REQUIREMENT', 'BANK_STATEMENT', 'BUSINESS_ICON', 'BUSINESS_LOGO', 'CANCEL_POLICY',
  'CUSTOMER_INTERACTION', 'DRIVERS_LICENCE', 'IDENTIFICATION_DOCUMENT', 'IDENTIFICATION_DOCUMENT_BACK',
  'IDENTIFICATION_DOCUMENT_FRONT', 'LEGAL_AGREEMENT', 'OTHERS', 'PASSPORT', 'PAYMENT_DETAIL', 'PROOF_OF_ADDRESS',
  'PROOF_OF_AUTHENTICITY', 'PROOF_OF_DELIVERY', 'PROOF_OF_DIRECTOR', 'PROOF_OF_INDUSTRY',
  'PROOF_OF_NATIONAL_ID_NUMBER', 'PROOF_OF_OWNERSHIP', 'PROOF_OF_REGISTRATION', 'PROOF_OF_RELATIONSHIP',
  'PROOF_OF_SERVICE', 'PROOF_OF_SOURCE_OF_FUNDS', 'PROOF_OF_SOURCE_OF_WEALTH', 'PROOF_OF_TAX',
  'PROVIDER_IDENTITY_DOCUMENT', 'RECEIPT', 'REFUND_POLICY', 'SELFIE', 'SERVICE_AGREEMENT', 'SIGNATURE',
  'TERMS_AND_CONDITIONS', 'VAT_DOCUMENT',
] as const;
export const TRANSFER_STATUSES = ['CREATED', 'PENDING', 'SUCCEEDED', 'DECLINED', 'ERROR', 'REVERSED'] as const;

const RecipientDocument = z.object({ document_type: text(2, 6), document_number: text(3, 40) });
export const RecipientAddress = address({ zip: [4, 11] });

const LegalRepresentative = z.object({
  merchant_reference: text(3, 255).optional(),
  first_name: text(1, 255),
  last_name: text(1, 255),
  email: text(3, 255).email().optional(),
  date_of_birth: DateOnly.optional(),
  country: CountryCode.optional(),
  nationality: CountryCode.optional(),
  title: text(1, 255).optional(),
  publicly_exposed_person: z.boolean().optional(),
  ultimate_beneficial_owner: z.boolean().optional(),
  document: RecipientDocument.optional(),
  phone: Phone.optional(),
  /**
   * `address_line_2` may be null: upstream's legal representative items declare no address (any
   * shape passes its schema) and its "Create Recipient - US" example sends `address_line_2: null`.
   * It is answered `""`, the string §2.1 types it.
   */
  address: RecipientAddress.extend({ address_line_2: text(0, 255).nullable().optional() }).optional(),
});

const Bank = z.object({
  code: text(3, 3).optional(),
  branch: text(1, 10).optional(),
  branch_digit: text(1, 3).optional(),
  account: text(3, 250),
  account_digit: text(1, 250).optional(),
  account_type: z.enum(['CHECKINGS', 'SAVINGS', 'VISTA', 'PIX_EMAIL', 'PIX_PHONE', 'PIX_DOCUMENT_ID', 'PIX_BANK_ACCOUNT']),
  routing: text(1, 64).optional(),
  country: CountryCode.optional(),
  currency: Currency.optional(),
  payout_schedule: z.enum(['DAY', 'WEEK', 'MONTH', 'HOLD']).optional(),
});

/** How a recipient is paid out: to a bank account. */
export const RecipientWithdrawalMethod = z.object({ bank: Bank });

export const RecipientFile = z.object({
  file_name: text(3, 255),
  content_type: z.enum(['application/pdf', 'image/jpeg', 'image/png']),
  content_category: z.enum(RECIPIENT_DOCUMENT_CATEGORIES),
  content: Base64,
});

const RecipientOnboardingRequest = z.object({
  account_id: Id36To64.optional(),
  type: z.enum(['PREVIOUSLY_ONBOARDED', 'ONBOARD_ONTO_THE_PROVIDER']),
  workflow: z.enum(['HOSTED_BY_PROVIDER', 'DIRECT']),
  description: text(3, 255).optional(),
  callback_url: text(3, 526).optional(),
  provider: z.object({
    id: text(1, 64),
    connection_id: text(1, 64),
    recipient_id: text(1, 255).optional(),
    recipient_type: z.enum(['MEAL', 'FOOD', 'MULTI_BENEFITS', 'FLEET']).optional(),
  }),
  documentation: listOf(RecipientFile).optional(),
  withdrawal_methods: listOf(RecipientWithdrawalMethod).optional(),
});

export const SplitConfiguration = z
  .object({
    calculation_type: z.enum(['PERCENTAGE', 'FIXED', 'MIXED']),
    percentage: z.number().min(0.01).max(100).optional(),
    fixed_amount: AmountValue.optional(),
    currency: Currency,
    rounding_mode: z.enum(['STANDARD', 'ROUND_UP', 'ROUND_DOWN']).optional(),
  })
  .superRefine((cfg, ctx) => {
    const needsPercentage = cfg.calculation_type !== 'FIXED';
    const needsFixed = cfg.calculation_type !== 'PERCENTAGE';
    if (needsPercentage && cfg.percentage === undefined) {
      refuse(ctx, ['percentage'], `is required for ${cfg.calculation_type}`);
    }
    if (needsFixed && cfg.fixed_amount === undefined) {
      refuse(ctx, ['fixed_amount'], `is required for ${cfg.calculation_type}`);
    }
  });

/** Request of §4.7. The owners array is upstream's `legal_representatives`. */
export const CreateRecipientBody = z
  .object({
    account_id: Id36To64,
    merchant_recipient_id: text(1, 255),
    national_entity: z.enum(NATIONAL_ENTITIES),
    first_name: text(1, 80),
    last_name: text(1, 80),
    country: CountryCode,
    entity_type: z.enum(ENTITY_TYPES).optional(),
    date_of_birth: DateOnly.optional(),
    legal_name: text(1, 80).optional(),
    email: text(3, 255).email().optional(),
    website: text(3, 255).optional(),
    industry: text(1, 235).optional(),
    merchant_category_code: text(1, 235).optional(),
    document: RecipientDocument.optional(),
    phone: Phone.optional(),
    address: RecipientAddress.optional(),
    split_configuration: SplitConfiguration.optional(),
    legal_representatives: listOf(LegalRepresentative).optional(),
    withdrawal_methods: RecipientWithdrawalMethod.optional(),
    documentation: listOf(RecipientFile).optional(),
    onboardings: listOf(RecipientOnboardingRequest).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.national_entity === 'ENTITY') {
      if (!body.legal_representatives || body.legal_representatives.length === 0) {
        refuse(ctx, ['legal_representatives'], 'must list at least one owner when national_entity is ENTITY');
      }
    } else {
      if (body.legal_name !== undefined) {
        refuse(ctx, ['legal_name'], 'is only accepted when national_entity is ENTITY');
      }
      if (body.entity_type !== undefined) {
        refuse(ctx, ['entity_type'], 'is only accepted when national_entity is ENTITY');
      }
    }
  });
export type CreateRecipientBody = z.infer<typeof CreateRecipientBody>;

/** A recipient's file as reported (the content only where it is sent back). */
export const RecipientFileOut = z.object({
  file_name: z.string(),
  content_type: z.string(),
  content_category: z.string(),
  content: z.string().optional(),
});
/** A recipient's bank account as reported. */
export const RecipientBankOut = z.object({
  code: nullableString,
  branch: nullableString,
  branch_digit: nullableString,
  account: nullableString,
  account_digit: nullableString,
  account_type: nullableString,
  routing: nullableString,
  country: nullableString,
  currency: nullableString,
});

/**
 * A recipient's onboarding as answered. Strings not sent are `""`; `withdrawal_methods` and
 * `terms_of_service`, objects the request did not give, are left out.
 */
export const RecipientOnboarding = z.object({
  id: Uuid,
  type: z.string(),
  workflow: z.string(),
  description: z.string(),
  status: z.string(),
  callback_url: z.string(),
  provider: z.object({
    id: z.string(),
    connection_id: nullableString,
    recipient_id: nullableString,
    recipient_type: nullableString,
    redirect_url: nullableString,
    onboarding_url: nullableString,
    legal_entity: nullableString,
    balance_account_id: nullableString,
    legal_entity_id: nullableString,
  }),
  documentation: z.array(RecipientFileOut),
  requirements: z.array(z.object({ field: z.string(), message: z.string(), status: z.string() })),
  withdrawal_methods: z.object({ bank: RecipientBankOut }).optional(),
  legal_representatives: z.array(z.record(z.string(), z.unknown())).nullable().optional(),
  terms_of_service: z.object({ acceptance: z.boolean(), date: z.string().optional(), ip: z.string().optional() }).optional(),
  created_at: DateTime,
  updated_at: DateTime,
});

/**
 * Recipient, §2.11. `legal_name` is null when not sent (§2.11: "nullable string"); the other strings
 * not sent are `""`, and the objects not sent (`document`, `phone`, `address`,
 * `withdrawal_methods`, `split_configuration`) are left out, as upstream's answers leave
 * `split_configuration` out and its schema types each an object (Create Recipient;
 * docs/fidelity.md, "Absent values").
 */
export const Recipient = z.object({
  id: Uuid,
  account_id: z.string(),
  merchant_recipient_id: z.string(),
  national_entity: z.enum(NATIONAL_ENTITIES),
  entity_type: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  legal_name: z.string().nullable(),
  email: z.string(),
  website: z.string(),
  industry: z.string(),
  merchant_category_code: z.string(),
  date_of_birth: z.string(),
  country: z.string(),
  document: DocumentOut.optional(),
  phone: PhoneOut.optional(),
  address: AddressOut.optional(),
  legal_representatives: z.array(
    z.object({
      merchant_reference: nullableString,
      first_name: z.string(),
      last_name: z.string(),
      email: nullableString,
      date_of_birth: nullableString,
      country: nullableString,
      nationality: nullableString,
      title: nullableString,
      publicly_exposed_person: z.boolean().nullable().optional(),
      ultimate_beneficial_owner: z.boolean().nullable().optional(),
      document: DocumentOut.nullable().optional(),
      phone: PhoneOut.nullable().optional(),
      address: AddressOut.nullable().optional(),
    }),
  ),
  withdrawal_methods: z.object({ bank: RecipientBankOut }).optional(),
  documentation: z.array(RecipientFileOut),
  onboardings: z.array(RecipientOnboarding),
  split_configuration: z
    .object({
      calculation_type: z.string(),
      percentage: z.number().nullable().optional(),
      fixed_amount: z.number().nullable().optional(),
      currency: z.string(),
      rounding_mode: z.string().nullable().optional(),
    })
    .optional(),
  created_at: DateTime,
  updated_at: DateTime,
});
export type Recipient = z.infer<typeof Recipient>;

/** Request of POST /v1/split-marketplace/transfers (supporting). */
export const CreateTransferBody = z.object({
  account_id: Id36To64,
  recipient_id: Uuid,
  provider_id: text(1, 64),
  amount: Amount,
  description: text(3, 255).optional(),
  merchant_reference: text(3, 255).optional(),
  metadata: metadataList(50).optional(),
});
export type CreateTransferBody = z.infer<typeof CreateTransferBody>;

/** Request of §4.5: without amount the whole remaining transfer is reversed. */
export const ReverseTransferBody = z.object({
  account_id: Id36To64,
  amount: Amount.optional(),
  reason: text(1, 255).optional(),
  description: text(3, 255).optional(),
  merchant_reference: text(3, 255).optional(),
});
export type ReverseTransferBody = z.infer<typeof ReverseTransferBody>;

/** Split transfer, §2.15. */
export const Transfer = z.object({
  id: z.string(),
  recipient_id: Uuid,
  amount: AmountOut,
  status: z.string(),
  reason: z.string().nullable(),
  description: z.string().nullable(),
  merchant_reference: z.string().nullable(),
  metadata: MetadataOut,
  provider: z.string().nullable(),
  provider_data: z
    .object({
      id: z.string().nullable().optional(),
      transfer_id: z.string().nullable().optional(),
      recipient_id: z.string().nullable().optional(),
      response_code: z.string().nullable().optional(),
      response_message: z.string().nullable().optional(),
    })
    .passthrough(),
  transactions: z.array(
    z.object({
      code: z.string(),
      type: z.string(),
      status: z.string(),
      provider_transfer_id: z.string().nullable(),
      provider_response_message: z.string().nullable(),
      provider_raw_response: z.string().nullable(),
      amount: AmountOut.optional(),
      created_at: DateTime,
      updated_at: DateTime,
    }),
  ),
  created_at: DateTime,
  updated_at: DateTime,
  completed_at: z.string().nullable(),
});
export type Transfer = z.infer<typeof Transfer>;

export const TransferIdParams = z.object({ transfer_id: text(1, 64) });
