import type { BankingAccount, BankingEntity, BankingOnboarding, CreateEntityBody } from '@switchyard/contract';
import { currencyOfCountry } from './money.js';

/** Sensitive identifiers are kept as their last 4 characters only, from the moment they arrive. */
export const last4 = (value: string) => value.slice(-4);

type Person = NonNullable<CreateEntityBody['entity_detail']['individual']>;

function maskPerson(p: Person) {
  return {
    first_name: p.first_name,
    last_name: p.last_name,
    email: p.email,
    date_of_birth: p.date_of_birth,
    gender: p.gender ?? null,
    country_of_residence: p.country_of_residence,
    tax_information: (p.tax_information ?? []).map((t) => ({ country: t.country, tax_id_last_4: last4(t.tax_id), tax_id_type: t.tax_id_type, is_primary: t.is_primary })),
    document: p.document
      ? {
          document_type: p.document.document_type,
          document_number_last_4: last4(p.document.document_number),
          issuing_country: p.document.issuing_country,
          issued_at: p.document.issued_at ?? null,
          expires_at: p.document.expires_at ?? null,
        }
      : null,
  };
}

/** The entity as stored and returned: §2.12 with tax ids and document numbers masked. */
export function maskedEntity(body: CreateEntityBody, id: string, now: string): BankingEntity {
  const entity = body.entity_detail.entity;
  return {
    id,
    account_id: body.account_id,
    merchant_entity_id: body.merchant_entity_id,
    national_entity: body.national_entity,
    phone: body.phone,
    address: {
      address_line_1: body.address.address_line_1,
      address_line_2: body.address.address_line_2 ?? null,
      building_number_1: body.address.building_number_1 ?? null,
      building_number_2: body.address.building_number_2 ?? null,
      city: body.address.city,
      state: body.address.state,
      zip_code: body.address.zip_code,
      country: body.address.country,
    },
    entity_detail: {
      individual: body.entity_detail.individual ? maskPerson(body.entity_detail.individual) : null,
      entity: entity
        ? {
            name: entity.name,
            country: entity.country,
            entity_type: entity.entity_type ?? null,
            tax_information: (entity.tax_information ?? []).map((t) => ({ country: t.country, tax_id_last_4: last4(t.tax_id), tax_id_type: t.tax_id_type, is_primary: t.is_primary })),
            beneficial_owners: entity.beneficial_owners.map((o) => ({
              ...maskPerson(o),
              ownership_percentage: o.ownership_percentage,
              title: o.title ?? null,
              address: o.address ? { ...o.address } : null,
            })),
          }
        : null,
    },
    created_at: now,
    updated_at: now,
  };
}

/** The account a successful onboarding opens: ACTIVE, empty balances, rails of the country. */
export function openAccount(input: { id: string; entity: BankingEntity; onboarding: BankingOnboarding; accountNumber: string; providerAccountId: string; now: string }): BankingAccount {
  const country = input.entity.address.country ?? 'US';
  const currency = currencyOfCountry(country);
  const us = country === 'US';
  return {
    id: input.id,
    entity_id: input.entity.id,
    onboarding_id: input.onboarding.id,
    account_id: input.entity.account_id,
    provider: { account_id: input.providerAccountId },
    account_type: 'CHECKING',
    status: 'ACTIVE',
    account_number: input.accountNumber,
    routing_number: us ? '021000021' : null,
    iban: us ? null : `XX00SANDBOX${input.accountNumber}`,
    currency,
    balance: { available: 0, current: 0, pending: 0 },
    account_details: { account_name: input.entity.entity_detail.entity?.name ?? `${input.entity.entity_detail.individual?.first_name ?? ''} ${input.entity.entity_detail.individual?.last_name ?? ''}`.trim(), sort_code: null, bsb: null, swift: us ? null : 'SANDXXXX' },
    payment_rails: us ? { incoming: ['ACH', 'WIRE'], outgoing: ['ACH', 'WIRE'] } : { incoming: ['SWIFT'], outgoing: ['SWIFT'] },
    supports_book_transfers: true,
    created_at: input.now,
    updated_at: input.now,
  };
}
