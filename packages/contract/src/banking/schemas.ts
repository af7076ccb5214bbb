import { z } from 'zod';
import { CountryCode } from '../shared/countries.js';
import { Currency } from '../shared/money.js';
import { DateOnly, DateTime, refuse, text, Uuid } from '../shared/primitives.js';
import { FileObject, PostalAddressOut, nullableString } from '../shared/shapes.js';
import { listOf } from '../validation.js';

export const TAX_ID_TYPES = ['SSN', 'EIN', 'ITIN', 'VAT', 'ABN', 'NIF', 'TIN', 'OTHER'] as const;
export const ACCOUNT_TYPES = ['CHECKING', 'SAVINGS', 'INVESTMENT'] as const;
export const ACCOUNT_STATUSES = ['ACTIVE', 'PENDING', 'INACTIVE'] as const;
export const ONBOARDING_TYPES = ['ONE_STEP', 'PREVIOUSLY_ONBOARDED'] as const;
export const ONBOARDING_STATUSES = [
  'CREATED', 'PENDING', 'PENDING_ADDITIONAL_DOCUMENTATION', 'UNDER_REVIEW', 'SUCCEEDED', 'FAILED',
  'DECLINED', 'CANCELLED', 'EXPIRED',
] as const;
export const DOCUMENTATION_TYPES = [
  'IDENTITY_DOCUMENT', 'PROOF_OF_ADDRESS', 'BANK_STATEMENT', 'BUSINESS_DOCUMENT', 'TAX_INFORMATION',
  'FINANCIAL_DOCUMENT', 'BIOMETRIC_VERIFICATION', 'EMPLOYMENT_INFORMATION',
] as const;

export const TaxRecord = z.object({
  country: CountryCode,
  tax_id: text(1, 64),
  tax_id_type: z.enum(TAX_ID_TYPES),
  is_primary: z.boolean(),
});

/** The dates, address_line_2 and building numbers are nullable, as upstream's Create Entity (Banking Connectivity) marks them. */
const IdentityDocument = z.object({
  document_type: text(1, 64),
  document_number: text(1, 64),
  issuing_country: CountryCode,
  issued_at: DateOnly.nullable().optional(),
  expires_at: DateOnly.nullable().optional(),
});

const BankingAddress = z.object({
  address_line_1: text(1, 255),
  address_line_2: text(1, 255).nullable().optional(),
  building_number_1: text(1, 64).nullable().optional(),
  building_number_2: text(1, 64).nullable().optional(),
  city: text(1, 255),
  state: text(1, 255),
  zip_code: text(1, 16),
  country: CountryCode,
});

const Gender = z.enum(['M', 'F']);

export const IndividualDetail = z.object({
  first_name: text(1, 255),
  last_name: text(1, 255),
  email: text(3, 255).email(),
  date_of_birth: DateOnly,
  gender: Gender.optional(),
  country_of_residence: CountryCode,
  tax_information: listOf(TaxRecord).optional(),
  document: IdentityDocument.optional(),
});

/** An individual's details plus what makes them an owner of the entity. */
export const BeneficialOwner = IndividualDetail.extend({
  ownership_percentage: z.number().min(0.01).max(100),
  title: text(1, 255).optional(),
  address: BankingAddress.partial().optional(),
});

const EntityDetail = z.object({
  name: text(1, 255),
  country: CountryCode,
  tax_information: listOf(TaxRecord).optional(),
  entity_type: z.enum(['CORPORATION']).optional(),
  beneficial_owners: listOf(BeneficialOwner).min(1),
});

/** Request of §4.8: provide `individual` for INDIVIDUAL and `entity` for ENTITY; the other key is null or absent. */
export const CreateEntityBody = z
  .object({
    account_id: Uuid,
    merchant_entity_id: text(1, 255),
    national_entity: z.enum(['INDIVIDUAL', 'ENTITY']),
    phone: z.object({ country_code: z.string().regex(/^\+?\d{1,4}$/, 'must be a country calling code'), number: text(1, 32) }),
    address: BankingAddress,
    entity_detail: z.object({
      individual: IndividualDetail.nullable().optional(),
      entity: EntityDetail.nullable().optional(),
    }),
  })
  .superRefine((body, ctx) => {
    const wanted = body.national_entity === 'INDIVIDUAL' ? 'individual' : 'entity';
    const other = wanted === 'individual' ? 'entity' : 'individual';
    if (!body.entity_detail[wanted]) {
      refuse(ctx, ['entity_detail', wanted], `is required when national_entity is ${body.national_entity}`);
    }
    if (body.entity_detail[other]) {
      refuse(ctx, ['entity_detail', other], `must be null when national_entity is ${body.national_entity}`);
    }
  });
export type CreateEntityBody = z.infer<typeof CreateEntityBody>;

// The parts of a banking entity are exported so the client's generated types name each once.
/**
 * A banking address as answered: exactly the shared address lines, no neighborhood (§2.12). Its own
 * schema object, so that the client keeps the name as an alias of `PostalAddressOut`.
 */
export const BankingAddressOut = z.object(PostalAddressOut.shape);
export const BankingTaxRecordOut = z.object({
  country: z.string(),
  tax_id_last_4: z.string(),
  tax_id_type: z.string(),
  is_primary: z.boolean(),
});
export const BankingDocumentOut = z.object({
  document_type: z.string(),
  document_number_last_4: z.string(),
  issuing_country: z.string(),
  issued_at: nullableString,
  expires_at: nullableString,
});
export const BankingPersonOut = z.object({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  date_of_birth: z.string(),
  gender: nullableString,
  country_of_residence: z.string(),
  tax_information: z.array(BankingTaxRecordOut),
  document: BankingDocumentOut.nullable(),
});

/** A beneficial owner as answered: the person plus what makes them an owner of the entity. */
export const BeneficialOwnerOut = BankingPersonOut.extend({ ownership_percentage: z.number(), title: nullableString, address: BankingAddressOut.nullable().optional() });

/** Banking entity, §2.12: tax ids and document numbers come back as their last 4 characters. */
export const BankingEntity = z.object({
  id: z.string().startsWith('ent_'),
  account_id: z.string(),
  merchant_entity_id: z.string(),
  national_entity: z.enum(['INDIVIDUAL', 'ENTITY']),
  phone: z.object({ country_code: z.string(), number: z.string() }),
  address: BankingAddressOut,
  entity_detail: z.object({
    individual: BankingPersonOut.nullable(),
    entity: z
      .object({
        name: z.string(),
        country: z.string(),
        entity_type: nullableString,
        tax_information: z.array(BankingTaxRecordOut),
        beneficial_owners: z.array(BeneficialOwnerOut),
      })
      .nullable(),
  }),
  created_at: DateTime,
  updated_at: DateTime,
});
export type BankingEntity = z.infer<typeof BankingEntity>;

const Acceptance = z.object({
  accepted: z.boolean(),
  version: text(1, 64).optional(),
  accepted_at: DateTime,
  accepted_ip: z.string().ip().optional(),
});

const ComplianceDeclaration = z.object({
  terms_of_service: Acceptance,
  privacy_policy: Acceptance,
});

const RiskAssessment = z.object({
  assessed_at: DateTime.optional(),
  pep_status: z
    .object({
      is_pep: z.boolean(),
      pep_level: z.enum(['DIRECT', 'CLOSE_ASSOCIATE', 'FAMILY_MEMBER']).nullable().optional(),
      position: text(1, 255).nullable().optional(),
      country: CountryCode.nullable().optional(),
    })
    .optional(),
  rca_status: z
    .object({
      risk_level: z.enum(['LOW', 'MEDIUM', 'HIGH']),
      classified_at: DateTime.optional(),
      assessed_by: text(1, 255).optional(),
    })
    .optional(),
  sanctions_screening: z
    .object({
      appears_on_sanctions_list: z.boolean(),
      sanctions_list_name: text(1, 255).nullable().optional(),
      screened_at: DateTime.optional(),
    })
    .optional(),
});

const IncomeAmount = z.object({ amount: z.number().min(0), currency: Currency });

const SourceOfFunds = z.object({
  primary_source: z.enum([
    'EMPLOYMENT_SALARY', 'BUSINESS_INCOME', 'INVESTMENTS', 'RENTAL_INCOME', 'PENSION', 'GOVERNMENT_BENEFITS',
    'INHERITANCE', 'FAMILY_SUPPORT', 'SAVINGS', 'LOTTERY_GAMBLING', 'SALE_OF_ASSETS', 'CRYPTOCURRENCY',
    'FREELANCE_CONSULTING', 'OTHER',
  ]),
  secondary_sources: listOf(text(1, 64)).optional(),
  description: text(1, 1000).optional(),
  estimated_annual_income: IncomeAmount.optional(),
});

/** The onboarding documentation item: a `type` and the sub-object named after it in lower case. */
const DocumentationItem = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('IDENTITY_DOCUMENT'),
    identity_document: z.object({
      subtype: z.enum(['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID', 'STATE_ID']),
      document_number: text(1, 64),
      issuing_country: CountryCode,
      issuing_state: text(1, 64).optional(),
      issued_at: DateOnly.optional(),
      expires_at: DateOnly.optional(),
      front_image: FileObject,
      back_image: FileObject.optional(),
    }),
  }),
  z.object({
    type: z.literal('PROOF_OF_ADDRESS'),
    proof_of_address: z.object({
      subtype: z.enum(['UTILITY_BILL', 'BANK_STATEMENT', 'LEASE_AGREEMENT', 'MORTGAGE_STATEMENT', 'TAX_DOCUMENT']),
      provider_name: text(1, 255).optional(),
      bill_type: text(1, 64).optional(),
      issued_at: DateOnly.optional(),
      account_number: text(1, 64).optional(),
      verified_address: BankingAddress.pick({ address_line_1: true, city: true, state: true, zip_code: true, country: true }).optional(),
      file: FileObject,
    }),
  }),
  z.object({
    type: z.literal('BANK_STATEMENT'),
    bank_statement: z.object({
      bank_name: text(1, 255),
      account_number_last_4: z.string().regex(/^\d{4}$/, 'must be the last 4 digits'),
      statement_period_start: DateOnly,
      statement_period_end: DateOnly,
      file: FileObject,
    }),
  }),
  z.object({
    type: z.literal('BUSINESS_DOCUMENT'),
    business_document: z.object({
      subtype: z.enum([
        'ARTICLES_OF_INCORPORATION', 'BUSINESS_LICENSE', 'EIN_CONFIRMATION', 'OPERATING_AGREEMENT', 'CERTIFICATE_OF_GOOD_STANDING',
      ]),
      registration_number: text(1, 64).optional(),
      registered_at: DateOnly.optional(),
      issuing_state: text(1, 64).optional(),
      issuing_authority: text(1, 255).optional(),
      file: FileObject,
    }),
  }),
  z.object({
    type: z.literal('TAX_INFORMATION'),
    tax_information: z.object({
      tax_records: listOf(TaxRecord).min(1),
      tax_document_type: z.enum(['W9', '1099', 'TAX_RETURN', 'SSN_CARD', 'ITIN_LETTER', 'EIN_CONFIRMATION', 'VAT_CERTIFICATE']).optional(),
      tax_year: z.string().regex(/^\d{4}$/, 'must be a four-digit year').optional(),
      issuing_authority: text(1, 255).optional(),
      file: FileObject.optional(),
    }),
  }),
  z.object({
    type: z.literal('FINANCIAL_DOCUMENT'),
    financial_document: z.object({
      subtype: z.enum(['BALANCE_SHEET', 'PROFIT_LOSS_STATEMENT', 'CASH_FLOW_STATEMENT', 'FINANCIAL_AUDIT']),
      period_start: DateOnly.optional(),
      period_end: DateOnly.optional(),
      fiscal_year: z.string().regex(/^\d{4}$/, 'must be a four-digit year').optional(),
      audited: z.boolean().optional(),
      auditor_name: text(1, 255).nullable().optional(),
      file: FileObject,
    }),
  }),
  z.object({
    type: z.literal('BIOMETRIC_VERIFICATION'),
    biometric_verification: z.object({
      verification_method: z.enum(['FACIAL_RECOGNITION', 'FINGERPRINT', 'VOICE', 'IRIS_SCAN']),
      capture_method: z.enum(['LIVE_CAPTURE', 'UPLOADED']),
      capture_timestamp: DateTime.optional(),
      liveness_check_passed: z.boolean(),
      confidence_score: z.number().min(0).max(1),
      verification_provider: text(1, 255).optional(),
      live_image: FileObject.optional(),
      reference_image: FileObject.optional(),
    }),
  }),
  z.object({
    type: z.literal('EMPLOYMENT_INFORMATION'),
    employment_information: z.object({
      status: z.enum(['EMPLOYED', 'SELF_EMPLOYED', 'UNEMPLOYED', 'RETIRED', 'STUDENT']),
      employer_name: text(1, 255).optional(),
      occupation: text(1, 255).optional(),
      industry: text(1, 255).optional(),
      started_at: DateOnly.optional(),
      annual_income: IncomeAmount.optional(),
      verification_document: FileObject.optional(),
    }),
  }),
]);

/** Request of §4.4. */
export const CreateOnboardingBody = z
  .object({
    account_id: Uuid,
    service_connection_id: text(1, 64),
    onboarding_type: z.enum(ONBOARDING_TYPES),
    compliance_declaration: ComplianceDeclaration.optional(),
    risk_assessment: RiskAssessment.optional(),
    source_of_funds: SourceOfFunds.optional(),
    documentation: listOf(DocumentationItem).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.onboarding_type === 'ONE_STEP' && !body.compliance_declaration) {
      refuse(ctx, ['compliance_declaration'], 'is required for ONE_STEP onboarding');
    }
  });
export type CreateOnboardingBody = z.infer<typeof CreateOnboardingBody>;

/** Banking onboarding, §2.13. */
export const BankingOnboarding = z.object({
  id: z.string().startsWith('onb_'),
  entity_id: z.string(),
  service_account_id: z.string().nullable(),
  service_connection_id: z.string().optional(),
  /** `entity_id` is always issued: a PREVIOUSLY_ONBOARDED onboarding gets an internal id without contacting the provider (upstream's `onboarding_type` description). */
  provider: z.object({ entity_id: z.string(), status: z.string().nullable() }),
  onboarding_type: z.enum(ONBOARDING_TYPES),
  status: z.string(),
  requirements: z.array(z.object({ field: z.string(), message: z.string(), status: z.string() })),
  created_at: DateTime,
  updated_at: DateTime,
  /** Set at creation and kept once settled, as upstream's SUCCEEDED example keeps it (Get Entity Onboarding Status (Banking Connectivity)). */
  expires_at: DateTime,
});
export type BankingOnboarding = z.infer<typeof BankingOnboarding>;

/** Request of §4.14: only the fields to change. */
export const UpdateAccountBody = z.object({
  account_id: Uuid,
  account_type: z.enum(ACCOUNT_TYPES).optional(),
});
export type UpdateAccountBody = z.infer<typeof UpdateAccountBody>;

/** Banking account, §2.14. */
export const BankingAccount = z.object({
  id: z.string().startsWith('acct_'),
  entity_id: z.string(),
  onboarding_id: z.string(),
  account_id: z.string(),
  provider: z.object({ account_id: z.string().nullable() }),
  account_type: z.enum(ACCOUNT_TYPES),
  status: z.enum(ACCOUNT_STATUSES),
  account_number: z.string(),
  routing_number: z.string().nullable(),
  iban: z.string().nullable(),
  currency: z.string(),
  balance: z.object({ available: z.number(), current: z.number(), pending: z.number() }),
  account_details: z.object({
    account_name: z.string().nullable(),
    sort_code: z.string().nullable(),
    bsb: z.string().nullable(),
    swift: z.string().nullable(),
  }),
  payment_rails: z.object({ incoming: z.array(z.string()), outgoing: z.array(z.string()) }),
  supports_book_transfers: z.boolean(),
  created_at: DateTime,
  updated_at: DateTime,
});
export type BankingAccount = z.infer<typeof BankingAccount>;

export const EntityIdParams = z.object({ entity_id: text(1, 64) });
export const OnboardingParams = z.object({ entity_id: text(1, 64), onboarding_id: text(1, 64) });
/**
 * §4.14 types the path account_id as 36 characters (UUID) while §2.14 prefixes account ids
 * with `acct_`. Both hold for ids of the form `acct_` + 31 characters, which the sandbox
 * issues; the contract checks the length the spec states.
 */
export const AccountIdParams = z.object({ account_id: z.string().length(36) });
