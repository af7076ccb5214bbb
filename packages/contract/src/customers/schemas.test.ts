import { describe, it } from 'vitest';
import { fixtures } from '../fixtures/index.js';
import { expectAccepted, expectRejectedAt, repeat, set, type Rule } from '../test-support/rules.js';
import { CreateCustomerBody, CreateCustomerSessionBody, CustomerIdParams } from './schemas.js';

describe('CreateCustomerBody (§4.11)', () => {
  it('accepts a full valid customer', () => expectAccepted(CreateCustomerBody, fixtures.createCustomer()));
  it('accepts the minimal customer', () => expectAccepted(CreateCustomerBody, { merchant_customer_id: 'abc' }));
  it('accepts exactly 50 metadata items', () =>
    expectAccepted(CreateCustomerBody, set(fixtures.createCustomer(), ['metadata'], Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, value: 'v' })))));

  const rules: Rule<ReturnType<typeof fixtures.createCustomer>>[] = [
    { name: 'merchant_customer_id is required', mutate: (b) => set(b, ['merchant_customer_id'], undefined), path: 'merchant_customer_id' },
    { name: 'merchant_customer_id has at least 3 chars', mutate: (b) => set(b, ['merchant_customer_id'], 'ab'), path: 'merchant_customer_id' },
    { name: 'merchant_customer_id has at most 255 chars', mutate: (b) => set(b, ['merchant_customer_id'], repeat(256)), path: 'merchant_customer_id' },
    { name: 'first_name has at least 3 chars', mutate: (b) => set(b, ['first_name'], 'Al'), path: 'first_name' },
    { name: 'last_name has at most 255 chars', mutate: (b) => set(b, ['last_name'], repeat(256)), path: 'last_name' },
    { name: 'email is an email', mutate: (b) => set(b, ['email'], 'not-an-email'), path: 'email' },
    { name: 'date_of_birth is YYYY-MM-DD', mutate: (b) => set(b, ['date_of_birth'], '28/02/1990'), path: 'date_of_birth' },
    { name: 'date_of_birth is a real date', mutate: (b) => set(b, ['date_of_birth'], '1990-02-30'), path: 'date_of_birth' },
    { name: 'merchant_customer_created_at is a date-time', mutate: (b) => set(b, ['merchant_customer_created_at'], '2024-05-09'), path: 'merchant_customer_created_at' },
    { name: 'merchant_customer_created_at is at most 27 chars', mutate: (b) => set(b, ['merchant_customer_created_at'], '2024-05-09T20:46:54.786342123Z'), path: 'merchant_customer_created_at' },
    { name: 'nationality is an ISO 3166-1 code', mutate: (b) => set(b, ['nationality'], 'XX'), path: 'nationality' },
    { name: 'country is an ISO 3166-1 code', mutate: (b) => set(b, ['country'], 'ar'), path: 'country' },
    { name: 'document_number has at least 3 chars', mutate: (b) => set(b, ['document', 'document_number'], '12'), path: 'document.document_number' },
    { name: 'phone country_code is 1 to 3 digits', mutate: (b) => set(b, ['phone', 'country_code'], '+5491'), path: 'phone.country_code' },
    { name: 'billing address needs a city', mutate: (b) => set(b, ['billing_address', 'city'], undefined), path: 'billing_address.city' },
    { name: 'billing address country is ISO', mutate: (b) => set(b, ['billing_address', 'country'], 'ZZ'), path: 'billing_address.country' },
    {
      name: 'metadata holds at most 50 items',
      mutate: (b) => set(b, ['metadata'], Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, value: 'v' }))),
      path: 'metadata',
    },
    { name: 'metadata key has at most 48 chars', mutate: (b) => set(b, ['metadata', 0, 'key'], repeat(49)), path: 'metadata[0].key' },
    { name: 'metadata value has at most 512 chars', mutate: (b) => set(b, ['metadata', 0, 'value'], repeat(513)), path: 'metadata[0].value' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CreateCustomerBody, mutate(fixtures.createCustomer()), path));
});

describe('CreateCustomerSessionBody (supporting)', () => {
  it('accepts a valid session request', () => expectAccepted(CreateCustomerSessionBody, fixtures.createCustomerSession()));
  const rules: Rule<ReturnType<typeof fixtures.createCustomerSession>>[] = [
    { name: 'customer_id is required', mutate: (b) => set(b, ['customer_id'], undefined), path: 'customer_id' },
    { name: 'customer_id is a UUID', mutate: (b) => set(b, ['customer_id'], 'cust-1'), path: 'customer_id' },
    { name: 'country is one of the 17', mutate: (b) => set(b, ['country'], 'DE'), path: 'country' },
    { name: 'account_id is a UUID', mutate: (b) => set(b, ['account_id'], 'acc'), path: 'account_id' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CreateCustomerSessionBody, mutate(fixtures.createCustomerSession()), path));
});

describe('CustomerIdParams', () => {
  it('accepts 36 to 64 characters', () => expectAccepted(CustomerIdParams, { customer_id: repeat(64) }));
  it('rejects a short id', () => expectRejectedAt(CustomerIdParams, { customer_id: 'short' }, 'customer_id'));
  it('rejects a long id', () => expectRejectedAt(CustomerIdParams, { customer_id: repeat(65) }, 'customer_id'));
});
