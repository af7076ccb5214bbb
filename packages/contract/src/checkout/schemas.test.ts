import { describe, it } from 'vitest';
import { fixtures } from '../fixtures/index.js';
import { expectAccepted, expectRejectedAt, repeat, set, type Rule } from '../test-support/rules.js';
import { CreateCheckoutSessionBody, CreatePaymentLinkBody } from './schemas.js';

const metadata = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: 'v' }));

describe('CreateCheckoutSessionBody (§4.10)', () => {
  it('accepts a valid session', () => expectAccepted(CreateCheckoutSessionBody, fixtures.createCheckoutSession()));
  it('accepts 120 metadata items', () => expectAccepted(CreateCheckoutSessionBody, set(fixtures.createCheckoutSession(), ['metadata'], metadata(120))));
  it('accepts an amount with 4 decimals', () =>
    expectAccepted(CreateCheckoutSessionBody, set(fixtures.createCheckoutSession(), ['amount', 'value'], 10.1234)));
  // Upstream's Create Checkout Session marks alternative_amount.currency nullable.
  it('accepts an alternative_amount with a null currency (Create Checkout Session)', () =>
    expectAccepted(CreateCheckoutSessionBody, set(fixtures.createCheckoutSession(), ['alternative_amount'], { currency: null, value: 2 })));
  it('still requires the alternative_amount value', () =>
    expectRejectedAt(CreateCheckoutSessionBody, set(fixtures.createCheckoutSession(), ['alternative_amount'], { currency: null }), 'alternative_amount.value'));

  const rules: Rule<ReturnType<typeof fixtures.createCheckoutSession>>[] = [
    { name: 'merchant_order_id is required', mutate: (b) => set(b, ['merchant_order_id'], undefined), path: 'merchant_order_id' },
    { name: 'merchant_order_id has at least 3 chars', mutate: (b) => set(b, ['merchant_order_id'], 'ab'), path: 'merchant_order_id' },
    { name: 'payment_description has at most 255 chars', mutate: (b) => set(b, ['payment_description'], repeat(256)), path: 'payment_description' },
    { name: 'country is one of the 17', mutate: (b) => set(b, ['country'], 'FR'), path: 'country' },
    { name: 'account_id is required', mutate: (b) => set(b, ['account_id'], undefined), path: 'account_id' },
    { name: 'account_id is a UUID', mutate: (b) => set(b, ['account_id'], repeat(36)), path: 'account_id' },
    { name: 'customer_id is a UUID', mutate: (b) => set(b, ['customer_id'], 'cust'), path: 'customer_id' },
    { name: 'callback_url has at most 526 chars', mutate: (b) => set(b, ['callback_url'], repeat(527)), path: 'callback_url' },
    { name: 'metadata holds at most 120 items', mutate: (b) => set(b, ['metadata'], metadata(121)), path: 'metadata' },
    { name: 'workflow is an enum', mutate: (b) => set(b, ['workflow'], 'REDIRECT'), path: 'workflow' },
    { name: 'amount value has at most 4 decimals', mutate: (b) => set(b, ['amount', 'value'], 1.00001), path: 'amount.value' },
    { name: 'amount value is positive', mutate: (b) => set(b, ['amount', 'value'], 0), path: 'amount.value' },
    { name: 'amount currency is ISO 4217', mutate: (b) => set(b, ['amount', 'currency'], 'pesos'), path: 'amount.currency' },
    { name: 'amount currency is an ISO 4217 currency, not any 3 letters', mutate: (b) => set(b, ['amount', 'currency'], 'XYZ'), path: 'amount.currency' },
    {
      name: 'recurring billing interval_unit is an enum',
      mutate: (b) => set(b, ['recurring_payment'], { regular_billing: { label: 'Monthly', amount: '10.00', interval_unit: 'week', interval_count: 1 } }),
      path: 'recurring_payment.regular_billing.interval_unit',
    },
    {
      name: 'recurring billing amount is a decimal string',
      mutate: (b) => set(b, ['recurring_payment'], { regular_billing: { label: 'Monthly', amount: 'ten', interval_unit: 'month', interval_count: 1 } }),
      path: 'recurring_payment.regular_billing.amount',
    },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CreateCheckoutSessionBody, mutate(fixtures.createCheckoutSession()), path));
});

describe('CreatePaymentLinkBody (§4.12)', () => {
  it('accepts a valid link', () => expectAccepted(CreatePaymentLinkBody, fixtures.createPaymentLink()));
  it('accepts an empty payment_method_types list', () =>
    expectAccepted(CreatePaymentLinkBody, set(fixtures.createPaymentLink(), ['payment_method_types'], [])));
  // Upstream's Create Payment Link bounds phone.country_code at 5 characters (payer and seller).
  it("accepts a 5-character country_code with + in the payer's and the seller's phone (Create Payment Link)", () => {
    const body = set(fixtures.createPaymentLink(), ['customer_payer'], { phone: { country_code: '+1684', number: '6331234' } });
    expectAccepted(CreatePaymentLinkBody, set(body, ['additional_data'], { seller_details: { phone: { country_code: '+1684', number: '6331234' } } }));
  });
  // Upstream's Create Payment Link bounds customer_payer as Create Payment does.
  it("rejects a payer document type outside upstream's list and a 4-character zip (Create Payment Link)", () => {
    expectRejectedAt(CreatePaymentLinkBody, set(fixtures.createPaymentLink(), ['customer_payer'], { document: { document_type: 'SSN', document_number: '123456789' } }), 'customer_payer.document.document_type');
    expectRejectedAt(
      CreatePaymentLinkBody,
      set(fixtures.createPaymentLink(), ['customer_payer'], { billing_address: { address_line_1: 'Av. Corrientes 1234', country: 'AR', city: 'CABA', zip_code: '1043' } }),
      'customer_payer.billing_address.zip_code',
    );
    expectAccepted(CreatePaymentLinkBody, set(fixtures.createPaymentLink(), ['customer_payer'], { document: { document_type: 'DNI', document_number: '30123456' } }));
  });
  it('rejects a payment-link country_code beyond 5 characters', () =>
    expectRejectedAt(CreatePaymentLinkBody, set(fixtures.createPaymentLink(), ['customer_payer'], { phone: { country_code: '+16845', number: '6331234' } }), 'customer_payer.phone.country_code'));

  const rules: Rule<ReturnType<typeof fixtures.createPaymentLink>>[] = [
    { name: 'account_id is required', mutate: (b) => set(b, ['account_id'], undefined), path: 'account_id' },
    { name: 'account_id has at least 36 chars', mutate: (b) => set(b, ['account_id'], repeat(35)), path: 'account_id' },
    { name: 'account_id has at most 64 chars', mutate: (b) => set(b, ['account_id'], repeat(65)), path: 'account_id' },
    { name: 'amount is required', mutate: (b) => set(b, ['amount'], undefined), path: 'amount' },
    { name: 'payment_method_types is required', mutate: (b) => set(b, ['payment_method_types'], undefined), path: 'payment_method_types' },
    { name: 'payment_method_types items have at least 3 chars', mutate: (b) => set(b, ['payment_method_types'], ['CA']), path: 'payment_method_types[0]' },
    { name: 'country is one of the 17', mutate: (b) => set(b, ['country'], 'ES'), path: 'country' },
    { name: 'description has at least 3 chars', mutate: (b) => set(b, ['description'], 'ab'), path: 'description' },
    { name: 'callback_url has at most 256 chars', mutate: (b) => set(b, ['callback_url'], repeat(257)), path: 'callback_url' },
    { name: 'metadata holds at most 50 items', mutate: (b) => set(b, ['metadata'], metadata(51)), path: 'metadata' },
    { name: 'availability.start_at is a date-time', mutate: (b) => set(b, ['availability', 'start_at'], 'tomorrow'), path: 'availability.start_at' },
    {
      name: 'availability.finish_at comes after start_at',
      mutate: (b) => set(b, ['availability'], { start_at: '2026-02-01T00:00:00Z', finish_at: '2026-01-01T00:00:00Z' }),
      path: 'availability.finish_at',
    },
    { name: 'capture is a boolean', mutate: (b) => set(b, ['capture'], 'yes'), path: 'capture' },
    { name: 'payments_number is a non-negative integer', mutate: (b) => set(b, ['payments_number'], -1), path: 'payments_number' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CreatePaymentLinkBody, mutate(fixtures.createPaymentLink()), path));
});

describe('CreatePaymentLinkBody: the lists a payment takes', () => {
  it("refuses an item category outside the list the link's payments take", () =>
    expectRejectedAt(
      CreatePaymentLinkBody,
      { ...fixtures.createPaymentLink(), additional_data: { order: { items: [{ id: 'i1', name: 'Item', quantity: 1, unit_amount: 1, category: 'Toys' }] } } },
      'additional_data.order.items[0].category',
    ));
  it('refuses a lower-case nationality (ISO 3166-1 alpha-2)', () =>
    expectRejectedAt(CreatePaymentLinkBody, set(fixtures.createPaymentLink(), ['customer_payer'], { nationality: 'us' }), 'customer_payer.nationality'));
});
