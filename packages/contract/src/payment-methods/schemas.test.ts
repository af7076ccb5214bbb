import { describe, it } from 'vitest';
import { fixtures } from '../fixtures/index.js';
import { expectAccepted, expectRejectedAt, repeat, set, type Rule } from '../test-support/rules.js';
import { CustomerSessionParams, EnrollDirectBody, EnrollInSessionBody } from './schemas.js';

describe('EnrollInSessionBody (§4.1)', () => {
  it('accepts CARD', () => expectAccepted(EnrollInSessionBody, fixtures.enrollInSession()));
  it.each(['ACME_WALLET', 'ACME_TOKENBOX', 'ACME_ENROLLMENT', 'ACME_ENROLLABLE', 'ACMEPAY', 'WALLET_CONNECT', 'SMART_PIX'])(
    'accepts the enrollable type form %s',
    (type) => expectAccepted(EnrollInSessionBody, set(fixtures.enrollInSession(), ['payment_method_type'], type)),
  );
  it('accepts verify with vault_on_success', () =>
    expectAccepted(EnrollInSessionBody, set(fixtures.enrollInSession(), ['verify'], { vault_on_success: true, currency: 'ARS' })));

  const rules: Rule<ReturnType<typeof fixtures.enrollInSession>>[] = [
    { name: 'account_id is required', mutate: (b) => set(b, ['account_id'], undefined), path: 'account_id' },
    { name: 'account_id is a 36-char UUID', mutate: (b) => set(b, ['account_id'], `${'a'.repeat(36)}x`), path: 'account_id' },
    { name: 'payment_method_type is required', mutate: (b) => set(b, ['payment_method_type'], undefined), path: 'payment_method_type' },
    { name: 'payment_method_type has at least 3 chars', mutate: (b) => set(b, ['payment_method_type'], 'CA'), path: 'payment_method_type' },
    { name: 'payment_method_type has at most 255 chars', mutate: (b) => set(b, ['payment_method_type'], 'A'.repeat(256)), path: 'payment_method_type' },
    { name: 'payment_method_type is an upper-case type', mutate: (b) => set(b, ['payment_method_type'], 'card'), path: 'payment_method_type' },
    { name: 'country is required', mutate: (b) => set(b, ['country'], undefined), path: 'country' },
    { name: 'country is one of the 17', mutate: (b) => set(b, ['country'], 'CA'), path: 'country' },
    { name: 'verify is an object', mutate: (b) => set(b, ['verify'], true), path: 'verify' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(EnrollInSessionBody, mutate(fixtures.enrollInSession()), path));

  it('requires a UUID customer_session path param', () => expectRejectedAt(CustomerSessionParams, { customer_session: 'sess' }, 'customer_session'));
});

describe('EnrollDirectBody (§4.3)', () => {
  it('accepts a card enrollment', () => expectAccepted(EnrollDirectBody, fixtures.enrollDirect()));
  it('defaults workflow to DIRECT', () => {
    const parsed = EnrollDirectBody.parse(set(fixtures.enrollDirect(), ['workflow'], undefined));
    if (parsed.workflow !== 'DIRECT') throw new Error(`workflow defaulted to ${parsed.workflow}`);
  });
  it('accepts a <BRAND>_ENROLLMENT without card data', () =>
    expectAccepted(EnrollDirectBody, set(set(fixtures.enrollDirect(), ['card_data'], undefined), ['type'], 'ACME_ENROLLMENT')));
  it('accepts a CARD token migration through provider_data', () =>
    expectAccepted(EnrollDirectBody, set(set(fixtures.enrollDirect(), ['card_data'], undefined), ['provider_data'], { id: 'PROVIDER', payment_method_token: 'tok_1' })));

  const rules: Rule<ReturnType<typeof fixtures.enrollDirect>>[] = [
    { name: 'account_id has at least 36 chars', mutate: (b) => set(b, ['account_id'], repeat(35)), path: 'account_id' },
    { name: 'account_id has at most 64 chars', mutate: (b) => set(b, ['account_id'], repeat(65)), path: 'account_id' },
    { name: 'country is one of the 17', mutate: (b) => set(b, ['country'], 'DE'), path: 'country' },
    { name: 'type is CARD or <BRAND>_ENROLLMENT', mutate: (b) => set(b, ['type'], 'ACME_WALLET'), path: 'type' },
    { name: 'workflow is only DIRECT', mutate: (b) => set(b, ['workflow'], 'CHECKOUT'), path: 'workflow' },
    { name: 'card_data is required for CARD', mutate: (b) => set(b, ['card_data'], undefined), path: 'card_data' },
    { name: 'card_data only with a CARD', mutate: (b) => set(b, ['type'], 'ACME_ENROLLMENT'), path: 'card_data' },
    { name: 'card number is 8 to 19 digits', mutate: (b) => set(b, ['card_data', 'number'], '4111-1111'), path: 'card_data.number' },
    { name: 'expiration_month is 1 to 12', mutate: (b) => set(b, ['card_data', 'expiration_month'], 13), path: 'card_data.expiration_month' },
    { name: 'expiration_year has two digits', mutate: (b) => set(b, ['card_data', 'expiration_year'], 2028), path: 'card_data.expiration_year' },
    { name: 'security_code is 3 or 4 digits', mutate: (b) => set(b, ['card_data', 'security_code'], '12'), path: 'card_data.security_code' },
    { name: 'callback_url has at least 3 chars', mutate: (b) => set(b, ['callback_url'], 'ab'), path: 'callback_url' },
    { name: 'callback_url has at most 255 chars', mutate: (b) => set(b, ['callback_url'], repeat(256)), path: 'callback_url' },
    { name: 'customer_payer document number has at least 3 chars', mutate: (b) => set(b, ['customer_payer'], { document: { document_type: 'DNI', document_number: '1' } }), path: 'customer_payer.document.document_number' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(EnrollDirectBody, mutate(fixtures.enrollDirect()), path));
});
