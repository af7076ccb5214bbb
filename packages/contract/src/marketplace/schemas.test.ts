import { describe, it } from 'vitest';
import { fixtures } from '../fixtures/index.js';
import { expectAccepted, expectRejectedAt, repeat, set, type Rule } from '../test-support/rules.js';
import { CreateRecipientBody, CreateTransferBody, ReverseTransferBody } from './schemas.js';

describe('CreateRecipientBody (§4.7)', () => {
  it('accepts an individual', () => expectAccepted(CreateRecipientBody, fixtures.createRecipient()));
  it('accepts an entity with owners and a legal name', () => expectAccepted(CreateRecipientBody, fixtures.createEntityRecipient()));
  it('accepts a percentage split configuration', () =>
    expectAccepted(CreateRecipientBody, set(fixtures.createRecipient(), ['split_configuration'], { calculation_type: 'PERCENTAGE', percentage: 10, currency: 'BRL' })));

  const rules: Rule<ReturnType<typeof fixtures.createRecipient>>[] = [
    { name: 'account_id has at least 36 chars', mutate: (b) => set(b, ['account_id'], repeat(35)), path: 'account_id' },
    { name: 'merchant_recipient_id is required', mutate: (b) => set(b, ['merchant_recipient_id'], undefined), path: 'merchant_recipient_id' },
    { name: 'merchant_recipient_id has at most 255 chars', mutate: (b) => set(b, ['merchant_recipient_id'], repeat(256)), path: 'merchant_recipient_id' },
    { name: 'merchant_recipient_id is not empty', mutate: (b) => set(b, ['merchant_recipient_id'], ''), path: 'merchant_recipient_id' },
    { name: 'national_entity is an enum', mutate: (b) => set(b, ['national_entity'], 'PERSON'), path: 'national_entity' },
    { name: 'first_name has at most 80 chars', mutate: (b) => set(b, ['first_name'], repeat(81)), path: 'first_name' },
    { name: 'last_name is required', mutate: (b) => set(b, ['last_name'], undefined), path: 'last_name' },
    { name: 'country is 2 chars', mutate: (b) => set(b, ['country'], 'BRA'), path: 'country' },
    { name: 'entity_type is an enum', mutate: (b) => set(b, ['entity_type'], 'LLC'), path: 'entity_type' },
    { name: 'date_of_birth is exactly 10 chars', mutate: (b) => set(b, ['date_of_birth'], '1985-2-9'), path: 'date_of_birth' },
    { name: 'legal_name only with ENTITY', mutate: (b) => set(b, ['legal_name'], 'Hopper SA'), path: 'legal_name' },
    { name: 'website has at least 3 chars', mutate: (b) => set(b, ['website'], 'ab'), path: 'website' },
    { name: 'industry has at most 235 chars', mutate: (b) => set(b, ['industry'], repeat(236)), path: 'industry' },
    { name: 'merchant_category_code is not empty', mutate: (b) => set(b, ['merchant_category_code'], ''), path: 'merchant_category_code' },
    { name: 'email has at most 255 chars', mutate: (b) => set(b, ['email'], `${repeat(250)}@example.com`), path: 'email' },
    { name: 'bank account_type is an enum', mutate: (b) => set(b, ['withdrawal_methods', 'bank', 'account_type'], 'BROKERAGE'), path: 'withdrawal_methods.bank.account_type' },
    {
      name: 'documentation content is base64',
      mutate: (b) => set(b, ['documentation'], [{ file_name: 'id.pdf', content_type: 'application/pdf', content_category: 'IDENTIFICATION_DOCUMENT', content: '%%%' }]),
      path: 'documentation[0].content',
    },
    {
      name: 'split_configuration PERCENTAGE needs a percentage',
      mutate: (b) => set(b, ['split_configuration'], { calculation_type: 'PERCENTAGE', currency: 'BRL' }),
      path: 'split_configuration.percentage',
    },
    {
      name: 'onboardings need a provider',
      mutate: (b) => set(b, ['onboardings'], [{ type: 'PREVIOUSLY_ONBOARDED', workflow: 'DIRECT' }]),
      path: 'onboardings[0].provider',
    },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CreateRecipientBody, mutate(fixtures.createRecipient()), path));

  // Upstream's content_category list (Create Recipient, documentation[]); the spec names none.
  const file = (content_category: string) => ({ file_name: 'doc.pdf', content_type: 'application/pdf', content_category, content: 'JVBERg==' });
  it.each(['PASSPORT', 'SELFIE', 'VAT_DOCUMENT', 'PROOF_OF_SOURCE_OF_FUNDS', 'LEGAL_AGREEMENT'])('accepts upstream content_category %s (Create Recipient)', (category) => {
    expectAccepted(CreateRecipientBody, set(fixtures.createRecipient(), ['documentation'], [file(category)]));
    expectAccepted(
      CreateRecipientBody,
      set(fixtures.createRecipient(), ['onboardings'], [{ type: 'PREVIOUSLY_ONBOARDED', workflow: 'DIRECT', provider: { id: 'P', connection_id: 'C' }, documentation: [file(category)] }]),
    );
  });
  it.each(['LEGAL_DOCUMENT', 'PROOF_OF_INCOME'])('rejects %s, which upstream does not list', (category) =>
    expectRejectedAt(CreateRecipientBody, set(fixtures.createRecipient(), ['documentation'], [file(category)]), 'documentation[0].content_category'));
  // Upstream's Create Recipient bounds phone.country_code at 1 to 3 characters, so "+57" fits.
  it('accepts a phone country_code with a + (Create Recipient, phone)', () =>
    expectAccepted(CreateRecipientBody, set(fixtures.createRecipient(), ['phone'], { country_code: '+57', number: '3001234567' })));
  it('rejects a phone country_code beyond 3 characters', () =>
    expectRejectedAt(CreateRecipientBody, set(fixtures.createRecipient(), ['phone'], { country_code: '+598', number: '3001234567' }), 'phone.country_code'));

  it('requires owners (legal_representatives) for an ENTITY', () =>
    expectRejectedAt(CreateRecipientBody, set(fixtures.createEntityRecipient(), ['legal_representatives'], undefined), 'legal_representatives'));
  it('requires at least one owner for an ENTITY', () =>
    expectRejectedAt(CreateRecipientBody, set(fixtures.createEntityRecipient(), ['legal_representatives'], []), 'legal_representatives'));
  it('checks owners one by one', () =>
    expectRejectedAt(CreateRecipientBody, set(fixtures.createEntityRecipient(), ['legal_representatives', 0, 'first_name'], ''), 'legal_representatives[0].first_name'));
  it('checks legal_name length for an ENTITY', () =>
    expectRejectedAt(CreateRecipientBody, set(fixtures.createEntityRecipient(), ['legal_name'], repeat(81)), 'legal_name'));
});

describe('CreateTransferBody (supporting)', () => {
  it('accepts a transfer', () => expectAccepted(CreateTransferBody, fixtures.createTransfer()));
  it('rejects a non-UUID recipient', () => expectRejectedAt(CreateTransferBody, set(fixtures.createTransfer(), ['recipient_id'], 'r1'), 'recipient_id'));
  it('rejects a missing provider_id', () => expectRejectedAt(CreateTransferBody, set(fixtures.createTransfer(), ['provider_id'], undefined), 'provider_id'));
  it('rejects a missing amount', () => expectRejectedAt(CreateTransferBody, set(fixtures.createTransfer(), ['amount'], undefined), 'amount'));
});

describe('ReverseTransferBody (§4.5)', () => {
  it('accepts a full reversal', () => expectAccepted(ReverseTransferBody, fixtures.reverseTransfer()));
  it('accepts a partial reversal', () => expectAccepted(ReverseTransferBody, set(fixtures.reverseTransfer(), ['amount'], { currency: 'BRL', value: 10.5 })));
  const rules: Rule<ReturnType<typeof fixtures.reverseTransfer>>[] = [
    { name: 'account_id is required', mutate: (b) => set(b, ['account_id'], undefined), path: 'account_id' },
    { name: 'amount value has at most 4 decimals', mutate: (b) => set(b, ['amount'], { currency: 'BRL', value: 0.12345 }), path: 'amount.value' },
    { name: 'amount currency is required', mutate: (b) => set(b, ['amount'], { value: 1 }), path: 'amount.currency' },
    { name: 'merchant_reference has at least 3 chars', mutate: (b) => set(b, ['merchant_reference'], 'ab'), path: 'merchant_reference' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(ReverseTransferBody, mutate(fixtures.reverseTransfer()), path));
});
