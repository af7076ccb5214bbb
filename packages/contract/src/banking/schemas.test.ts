import { describe, it } from 'vitest';
import { fixtures } from '../fixtures/index.js';
import { expectAccepted, expectRejectedAt, set, type Rule } from '../test-support/rules.js';
import { AccountIdParams, CreateEntityBody, CreateOnboardingBody, UpdateAccountBody } from './schemas.js';
import { bankingContract } from './routes.js';

const keys = { 'public-api-key': 'k', 'private-secret-key': 's' };

describe('CreateEntityBody (§4.8)', () => {
  it('accepts an individual', () => expectAccepted(CreateEntityBody, fixtures.createIndividualEntity()));
  it('accepts a company with beneficial owners', () => expectAccepted(CreateEntityBody, fixtures.createCompanyEntity()));
  const rules: Rule<ReturnType<typeof fixtures.createIndividualEntity>>[] = [
    { name: 'account_id is a UUID', mutate: (b) => set(b, ['account_id'], 'acct'), path: 'account_id' },
    { name: 'merchant_entity_id is required', mutate: (b) => set(b, ['merchant_entity_id'], undefined), path: 'merchant_entity_id' },
    { name: 'national_entity is an enum', mutate: (b) => set(b, ['national_entity'], 'TRUST'), path: 'national_entity' },
    { name: 'phone is required', mutate: (b) => set(b, ['phone'], undefined), path: 'phone' },
    { name: 'address is required', mutate: (b) => set(b, ['address'], undefined), path: 'address' },
    { name: 'address needs a zip_code', mutate: (b) => set(b, ['address', 'zip_code'], undefined), path: 'address.zip_code' },
    { name: 'entity_detail is required', mutate: (b) => set(b, ['entity_detail'], undefined), path: 'entity_detail' },
    { name: 'individual is required for INDIVIDUAL', mutate: (b) => set(b, ['entity_detail', 'individual'], null), path: 'entity_detail.individual' },
    {
      name: 'entity must be null for INDIVIDUAL',
      mutate: (b) => set(b, ['entity_detail', 'entity'], fixtures.createCompanyEntity().entity_detail.entity),
      path: 'entity_detail.entity',
    },
    { name: 'tax_id_type is an enum', mutate: (b) => set(b, ['entity_detail', 'individual', 'tax_information', 0, 'tax_id_type'], 'CPF'), path: 'entity_detail.individual.tax_information[0].tax_id_type' },
    { name: 'individual date_of_birth is YYYY-MM-DD', mutate: (b) => set(b, ['entity_detail', 'individual', 'date_of_birth'], '23-06-1980'), path: 'entity_detail.individual.date_of_birth' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CreateEntityBody, mutate(fixtures.createIndividualEntity()), path));

  it('requires entity for ENTITY', () =>
    expectRejectedAt(CreateEntityBody, set(fixtures.createCompanyEntity(), ['entity_detail', 'entity'], null), 'entity_detail.entity'));
  it('requires beneficial owners for ENTITY', () =>
    expectRejectedAt(CreateEntityBody, set(fixtures.createCompanyEntity(), ['entity_detail', 'entity', 'beneficial_owners'], []), 'entity_detail.entity.beneficial_owners'));
  it('bounds ownership_percentage', () =>
    expectRejectedAt(
      CreateEntityBody,
      set(fixtures.createCompanyEntity(), ['entity_detail', 'entity', 'beneficial_owners', 0, 'ownership_percentage'], 120),
      'entity_detail.entity.beneficial_owners[0].ownership_percentage',
    ));
  // Upstream's Create Entity (Banking Connectivity) marks these nullable, and both its examples send null.
  it('accepts null address_line_2 and building numbers (Create Entity, address)', () =>
    expectAccepted(CreateEntityBody, set(fixtures.createIndividualEntity(), ['address'], { ...fixtures.createIndividualEntity().address, address_line_2: null, building_number_1: null, building_number_2: null })));
  it('accepts null document issued_at and expires_at (Create Entity, individual.document)', () => {
    const body = fixtures.createIndividualEntity();
    set(body, ['entity_detail', 'individual', 'document', 'issued_at'], null);
    expectAccepted(CreateEntityBody, set(body, ['entity_detail', 'individual', 'document', 'expires_at'], null));
  });
  it("accepts null in an owner's document dates and address lines (Create Entity, beneficial_owners[])", () => {
    const body = fixtures.createCompanyEntity();
    const owner = ['entity_detail', 'entity', 'beneficial_owners', 0];
    set(body, [...owner, 'document'], { document_type: 'SSN', document_number: '987-65-4321', issuing_country: 'US', issued_at: '2005-03-20', expires_at: null });
    set(body, [...owner, 'address'], { address_line_1: '789 Oak St', address_line_2: null, building_number_1: null, building_number_2: null, city: 'San Francisco', state: 'CA', zip_code: '94103', country: 'US' });
    expectAccepted(CreateEntityBody, body);
  });
  it('still rejects null where upstream does not allow it (address.city)', () =>
    expectRejectedAt(CreateEntityBody, set(fixtures.createIndividualEntity(), ['address', 'city'], null), 'address.city'));
  it('needs a UUID idempotency key', () => {
    expectAccepted(bankingContract.createEntity.headers, { ...keys, 'x-idempotency-key': '0f0e0d0c-0b0a-4909-8807-060504030201' });
    expectRejectedAt(bankingContract.createEntity.headers, { ...keys, 'x-idempotency-key': 'key-1' }, 'x-idempotency-key');
    expectRejectedAt(bankingContract.createEntity.headers, keys, 'x-idempotency-key');
  });
});

describe('CreateOnboardingBody (§4.4)', () => {
  it('accepts ONE_STEP with a compliance declaration', () => expectAccepted(CreateOnboardingBody, fixtures.createOnboarding()));
  it('accepts PREVIOUSLY_ONBOARDED without one', () =>
    expectAccepted(CreateOnboardingBody, { account_id: fixtures.createOnboarding().account_id, service_connection_id: 'conn-1', onboarding_type: 'PREVIOUSLY_ONBOARDED' }));
  it.each([
    ['PROOF_OF_ADDRESS', { proof_of_address: { subtype: 'UTILITY_BILL', file: { file_name: 'bill.pdf', content_type: 'application/pdf', content: 'JVBERg==' } } }],
    ['BANK_STATEMENT', { bank_statement: { bank_name: 'Bank', account_number_last_4: '1234', statement_period_start: '2026-01-01', statement_period_end: '2026-01-31', file: { file_name: 'st.pdf', content_type: 'application/pdf', content: 'JVBERg==' } } }],
    ['EMPLOYMENT_INFORMATION', { employment_information: { status: 'EMPLOYED', employer_name: 'ACME' } }],
    ['BIOMETRIC_VERIFICATION', { biometric_verification: { verification_method: 'FACIAL_RECOGNITION', capture_method: 'LIVE_CAPTURE', liveness_check_passed: true, confidence_score: 0.98 } }],
  ])('accepts a %s item carrying its sub-object', (type, sub) =>
    expectAccepted(CreateOnboardingBody, set(fixtures.createOnboarding(), ['documentation'], [{ type, ...sub }])));

  // Upstream's Create Entity Onboarding (Banking Connectivity) marks these nullable; its ONE_STEP example sends null.
  it('accepts null pep_status.position/country and sanctions_list_name (Create Entity Onboarding, risk_assessment)', () =>
    expectAccepted(
      CreateOnboardingBody,
      set(fixtures.createOnboarding(), ['risk_assessment'], {
        pep_status: { is_pep: false, pep_level: null, position: null, country: null },
        sanctions_screening: { appears_on_sanctions_list: false, sanctions_list_name: null, screened_at: '2026-01-15T10:00:00Z' },
      }),
    ));
  it('accepts a null auditor_name (Create Entity Onboarding, financial_document)', () =>
    expectAccepted(
      CreateOnboardingBody,
      set(fixtures.createOnboarding(), ['documentation'], [
        { type: 'FINANCIAL_DOCUMENT', financial_document: { subtype: 'BALANCE_SHEET', audited: false, auditor_name: null, file: { file_name: 'bs.pdf', content_type: 'application/pdf', content: 'JVBERg==' } } },
      ]),
    ));

  const rules: Rule<ReturnType<typeof fixtures.createOnboarding>>[] = [
    { name: 'compliance_declaration is required for ONE_STEP', mutate: (b) => set(b, ['compliance_declaration'], undefined), path: 'compliance_declaration' },
    { name: 'service_connection_id is required', mutate: (b) => set(b, ['service_connection_id'], undefined), path: 'service_connection_id' },
    { name: 'onboarding_type is an enum', mutate: (b) => set(b, ['onboarding_type'], 'TWO_STEP'), path: 'onboarding_type' },
    { name: 'account_id is a UUID', mutate: (b) => set(b, ['account_id'], 'x'), path: 'account_id' },
    { name: 'terms accepted_at is a date-time', mutate: (b) => set(b, ['compliance_declaration', 'terms_of_service', 'accepted_at'], 'yesterday'), path: 'compliance_declaration.terms_of_service.accepted_at' },
    { name: 'documentation type is an enum', mutate: (b) => set(b, ['documentation', 0, 'type'], 'SELFIE'), path: 'documentation[0].type' },
    {
      name: 'documentation item carries the sub-object named after its type',
      mutate: (b) => set(b, ['documentation'], [{ type: 'PROOF_OF_ADDRESS', identity_document: b.documentation?.[0] }]),
      path: 'documentation[0].proof_of_address',
    },
    { name: 'file content is base64', mutate: (b) => set(b, ['documentation', 0, 'identity_document', 'front_image', 'content'], '***'), path: 'documentation[0].identity_document.front_image.content' },
    { name: 'primary_source is an enum', mutate: (b) => set(b, ['source_of_funds', 'primary_source'], 'GIFT'), path: 'source_of_funds.primary_source' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CreateOnboardingBody, mutate(fixtures.createOnboarding()), path));
});

describe('UpdateAccountBody (§4.14)', () => {
  it('accepts an account type change', () => expectAccepted(UpdateAccountBody, fixtures.updateAccount()));
  it('accepts only the account id (nothing to change)', () => expectAccepted(UpdateAccountBody, { account_id: fixtures.updateAccount().account_id }));
  it('rejects an unknown account_type', () => expectRejectedAt(UpdateAccountBody, set(fixtures.updateAccount(), ['account_type'], 'BROKERAGE'), 'account_type'));
  it('rejects a missing account_id', () => expectRejectedAt(UpdateAccountBody, { account_type: 'SAVINGS' }, 'account_id'));
  it('takes a 36-char path account_id', () => {
    expectAccepted(AccountIdParams, { account_id: 'acct_0123456789abcdef0123456789abcde' });
    expectRejectedAt(AccountIdParams, { account_id: 'acct_1' }, 'account_id');
  });
});
