import { describe, expect, it } from 'vitest';
import { MINIMAL_PDF_BASE64, fixtures } from '../fixtures/index.js';
import { expectAccepted, expectRejectedAt, repeat, set, type Rule } from '../test-support/rules.js';
import {
  CancelOrRefundBody,
  CaptureBody,
  CreatePaymentBody,
  DisputeBody,
  EVIDENCE_MAX_BYTES,
  PaymentTransactionParams,
  RefundBody,
  RefundParams,
  base64DecodedLength,
} from './schemas.js';

describe('RefundBody (§4.2)', () => {
  it('accepts a full refund (no amount)', () => expectAccepted(RefundBody, fixtures.refund()));
  it('accepts a partial refund', () => expectAccepted(RefundBody, set(fixtures.refund(), ['amount'], { currency: 'ARS', value: 33.33 })));
  const rules: Rule<ReturnType<typeof fixtures.refund>>[] = [
    { name: 'merchant_reference is required', mutate: (b) => set(b, ['merchant_reference'], undefined), path: 'merchant_reference' },
    { name: 'merchant_reference has at least 3 chars', mutate: (b) => set(b, ['merchant_reference'], 'ab'), path: 'merchant_reference' },
    { name: 'merchant_reference has at most 255 chars', mutate: (b) => set(b, ['merchant_reference'], repeat(256)), path: 'merchant_reference' },
    { name: 'description has at least 3 chars', mutate: (b) => set(b, ['description'], 'no'), path: 'description' },
    { name: 'reason is an enum', mutate: (b) => set(b, ['reason'], 'CHANGED_MIND'), path: 'reason' },
    { name: 'amount value has at most 4 decimals', mutate: (b) => set(b, ['amount'], { currency: 'ARS', value: 0.00001 }), path: 'amount.value' },
    { name: 'amount value is positive', mutate: (b) => set(b, ['amount'], { currency: 'ARS', value: -5 }), path: 'amount.value' },
    { name: 'amount currency is required', mutate: (b) => set(b, ['amount'], { value: 5 }), path: 'amount.currency' },
    { name: 'simplified_mode is a boolean', mutate: (b) => set(b, ['simplified_mode'], 'true'), path: 'simplified_mode' },
    {
      name: 'split_marketplace items need a type',
      mutate: (b) => set(b, ['split_marketplace'], [{ recipient_id: 'r1', amount: { currency: 'ARS', value: 1 } }]),
      path: 'split_marketplace[0].type',
    },
    { name: 'response_additional_data language is an enum', mutate: (b) => set(b, ['response_additional_data'], { receipt_language: 'FR' }), path: 'response_additional_data.receipt_language' },
    { name: 'customer_payer gender is an enum', mutate: (b) => set(b, ['customer_payer'], { gender: 'X' }), path: 'customer_payer.gender' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(RefundBody, mutate(fixtures.refund()), path));
  it('needs UUID path params', () => {
    expectRejectedAt(RefundParams, { id: 'p1', transaction_id: '0f0e0d0c-0b0a-4909-8807-060504030201' }, 'id');
    expectRejectedAt(RefundParams, { id: '0f0e0d0c-0b0a-4909-8807-060504030201', transaction_id: 't1' }, 'transaction_id');
  });
});

describe('CancelOrRefundBody (§4.6)', () => {
  it('accepts a cancel without amount', () => expectAccepted(CancelOrRefundBody, fixtures.cancelOrRefund()));
  const rules: Rule<ReturnType<typeof fixtures.cancelOrRefund>>[] = [
    { name: 'reason is required', mutate: (b) => set(b, ['reason'], undefined), path: 'reason' },
    { name: 'reason is an enum', mutate: (b) => set(b, ['reason'], 'OTHER'), path: 'reason' },
    { name: 'description has at most 255 chars', mutate: (b) => set(b, ['description'], repeat(256)), path: 'description' },
    { name: 'merchant_reference has at least 3 chars', mutate: (b) => set(b, ['merchant_reference'], 'x'), path: 'merchant_reference' },
    { name: 'amount value has at most 4 decimals', mutate: (b) => set(b, ['amount'], { currency: 'ARS', value: 1.23456 }), path: 'amount.value' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CancelOrRefundBody, mutate(fixtures.cancelOrRefund()), path));
});

describe('DisputeBody (§4.9)', () => {
  it('accepts PDF evidence', () => expectAccepted(DisputeBody, fixtures.dispute()));
  it('measures decoded base64 size exactly', () => {
    expect(base64DecodedLength(btoa('a'))).toBe(1);
    expect(base64DecodedLength(btoa('ab'))).toBe(2);
    expect(base64DecodedLength(btoa('abc'))).toBe(3);
  });
  it('accepts evidence of exactly 1 MB decoded', () => {
    const exact = `${'A'.repeat(Math.floor(EVIDENCE_MAX_BYTES / 3) * 4)}AA==`;
    expect(base64DecodedLength(exact)).toBe(EVIDENCE_MAX_BYTES);
    expectAccepted(DisputeBody, set(fixtures.dispute(), ['evidence', 0, 'content'], exact));
  });
  const rules: Rule<ReturnType<typeof fixtures.dispute>>[] = [
    { name: 'account_id is required', mutate: (b) => set(b, ['account_id'], undefined), path: 'account_id' },
    { name: 'account_id is a UUID', mutate: (b) => set(b, ['account_id'], 'acct'), path: 'account_id' },
    { name: 'evidence is required', mutate: (b) => set(b, ['evidence'], undefined), path: 'evidence' },
    { name: 'evidence is not empty', mutate: (b) => set(b, ['evidence'], []), path: 'evidence' },
    { name: 'evidence is a PDF', mutate: (b) => set(b, ['evidence', 0, 'content_type'], 'image/png'), path: 'evidence[0].content_type' },
    { name: 'evidence content is base64', mutate: (b) => set(b, ['evidence', 0, 'content'], 'not base64!'), path: 'evidence[0].content' },
    {
      name: 'evidence is at most 1 MB decoded',
      mutate: (b) => set(b, ['evidence', 0, 'content'], 'A'.repeat((Math.floor(EVIDENCE_MAX_BYTES / 3) + 1) * 4)),
      path: 'evidence[0].content',
    },
    { name: 'content_category is an enum', mutate: (b) => set(b, ['evidence', 0, 'content_category'], 'SELFIE'), path: 'evidence[0].content_category' },
    { name: 'file_name is required', mutate: (b) => set(b, ['evidence', 0, 'file_name'], undefined), path: 'evidence[0].file_name' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(DisputeBody, mutate(fixtures.dispute()), path));
  it('keeps the minimal PDF fixture a PDF', () => expect(atob(MINIMAL_PDF_BASE64).startsWith('%PDF')).toBe(true));
  it('needs UUID path params', () => expectRejectedAt(PaymentTransactionParams, { payment_id: 'x', transaction_id: 'y' }, 'payment_id'));
});

describe('CreatePaymentBody (supporting)', () => {
  it('accepts a card payment', () => expectAccepted(CreatePaymentBody, fixtures.createPayment()));
  it('accepts a vaulted token payment', () =>
    expectAccepted(CreatePaymentBody, set(fixtures.createPayment(), ['payment_method'], { type: 'CARD', vaulted_token: 'vt_123' })));
  // Upstream Create Payment: `checkout` is "not required for `DIRECT` or `REDIRECT`
  // payments", and its DIRECT examples send no session.
  it.each(['DIRECT', 'REDIRECT'] as const)('accepts a %s payment without checkout', (workflow) =>
    expectAccepted(CreatePaymentBody, set(set(fixtures.createPayment(), ['checkout'], undefined), ['workflow'], workflow)));
  // Upstream Create Payment: `address_line_2` has no minimum, and its "Card - With
  // 3DS direct" example sends it empty.
  it('accepts an empty billing_address.address_line_2', () =>
    expectAccepted(
      CreatePaymentBody,
      set(fixtures.createPayment(), ['customer_payer'], { billing_address: { address_line_1: 'Calle 34 # 56 - 78', address_line_2: '', city: 'Bogota', country: 'CO' } }),
    ));
  const rules: Rule<ReturnType<typeof fixtures.createPayment>>[] = [
    { name: 'checkout.session is required', mutate: (b) => set(b, ['checkout'], {}), path: 'checkout.session' },
    // Upstream Create Payment, `checkout`: required for SDK_CHECKOUT or no workflow.
    { name: 'checkout is required without a workflow', mutate: (b) => set(b, ['checkout'], undefined), path: 'checkout' },
    { name: 'checkout is required for SDK_CHECKOUT', mutate: (b) => set(set(b, ['checkout'], undefined), ['workflow'], 'SDK_CHECKOUT'), path: 'checkout' },
    { name: 'checkout is required for CHECKOUT', mutate: (b) => set(set(b, ['checkout'], undefined), ['workflow'], 'CHECKOUT'), path: 'checkout' },
    { name: 'checkout.session is required for DIRECT when checkout is sent', mutate: (b) => set(set(b, ['checkout'], {}), ['workflow'], 'DIRECT'), path: 'checkout.session' },
    { name: 'description is required', mutate: (b) => set(b, ['description'], undefined), path: 'description' },
    { name: 'merchant_order_id has at least 3 chars', mutate: (b) => set(b, ['merchant_order_id'], 'x'), path: 'merchant_order_id' },
    { name: 'amount value has at most 4 decimals', mutate: (b) => set(b, ['amount', 'value'], 9.99999), path: 'amount.value' },
    { name: 'payment_method needs a source', mutate: (b) => set(b, ['payment_method'], { type: 'CARD' }), path: 'payment_method' },
    {
      name: 'payment_method takes one source',
      mutate: (b) => set(b, ['payment_method', 'vaulted_token'], 'vt_1'),
      path: 'payment_method',
    },
    { name: 'card number is digits', mutate: (b) => set(b, ['payment_method', 'detail', 'card', 'card_data', 'number'], '4111 1111 1111 1111'), path: 'payment_method.detail.card.card_data.number' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CreatePaymentBody, mutate(fixtures.createPayment()), path));
});

/** Upstream's Capture Authorization requires merchant_reference, reason and amount (the spec has no capture endpoint). */
describe('CaptureBody (supporting)', () => {
  it('accepts a full capture', () => expectAccepted(CaptureBody, fixtures.capture()));
  it('accepts a partial capture', () => expectAccepted(CaptureBody, set(fixtures.capture(), ['amount'], { currency: 'ARS', value: 10 })));
  it.each(['merchant_reference', 'reason', 'amount'] as const)('rejects a missing %s', (field) => {
    const body: Record<string, unknown> = { ...fixtures.capture() };
    delete body[field];
    expectRejectedAt(CaptureBody, body, field);
  });
});

/**
 * Customer_payer as upstream bounds it (Create Payment, Refund Payment,
 * Cancel or Refund a Payment): document_type from its 28-value list, zip_code 5 to 10, city
 * and building numbers at least 3, neighborhood at least 2.
 */
describe('customer_payer (Create Payment, Refund Payment)', () => {
  const address = { address_line_1: 'Calle 34 # 56 - 78', country: 'CO', state: 'Cundinamarca', city: 'Bogotá', zip_code: '111111', neighborhood: 'Chapinero' };
  const payer = { document: { document_type: 'CC', document_number: '1234567890' }, billing_address: address, shipping_address: address };
  const payment = () => set(fixtures.createPayment(), ['customer_payer'], structuredClone(payer));

  it('accepts a payer with an upstream document type and address', () => {
    expectAccepted(CreatePaymentBody, payment());
    expectAccepted(RefundBody, set(fixtures.refund(), ['customer_payer'], structuredClone(payer)));
    expectAccepted(CancelOrRefundBody, set(fixtures.cancelOrRefund(), ['customer_payer'], structuredClone(payer)));
  });
  const rules: Rule<ReturnType<typeof payment>>[] = [
    { name: 'document_type is one of the 28 upstream lists (SSN is not)', mutate: (b) => set(b, ['customer_payer', 'document', 'document_type'], 'SSN'), path: 'customer_payer.document.document_type' },
    { name: 'zip_code has at least 5 chars', mutate: (b) => set(b, ['customer_payer', 'billing_address', 'zip_code'], '1043'), path: 'customer_payer.billing_address.zip_code' },
    { name: 'zip_code has at most 10 chars', mutate: (b) => set(b, ['customer_payer', 'shipping_address', 'zip_code'], '12345678901'), path: 'customer_payer.shipping_address.zip_code' },
    { name: 'city has at least 3 chars', mutate: (b) => set(b, ['customer_payer', 'billing_address', 'city'], 'Ba'), path: 'customer_payer.billing_address.city' },
    { name: 'building_number_1 has at least 3 chars', mutate: (b) => set(b, ['customer_payer', 'billing_address', 'building_number_1'], '12'), path: 'customer_payer.billing_address.building_number_1' },
    { name: 'neighborhood has at least 2 chars', mutate: (b) => set(b, ['customer_payer', 'billing_address', 'neighborhood'], 'X'), path: 'customer_payer.billing_address.neighborhood' },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CreatePaymentBody, mutate(payment()), path));
  it('applies the same document list to a refund and a cancel-or-refund', () => {
    const ssn = set(structuredClone(payer), ['document', 'document_type'], 'SSN');
    expectRejectedAt(RefundBody, set(fixtures.refund(), ['customer_payer'], ssn), 'customer_payer.document.document_type');
    expectRejectedAt(CancelOrRefundBody, set(fixtures.cancelOrRefund(), ['customer_payer'], ssn), 'customer_payer.document.document_type');
  });
});

describe('RefundBody: values upstream closes to a list', () => {
  it("refuses a bank transfer account_type outside upstream's CHECKINGS and SAVINGS", () =>
    expectRejectedAt(RefundBody, { ...fixtures.refund(), payment_method: { detail: { bank_transfer: { account_type: 'CHECKING' } } } }, 'payment_method.detail.bank_transfer.account_type'));
  it('accepts SAVINGS', () => expectAccepted(RefundBody, { ...fixtures.refund(), payment_method: { detail: { bank_transfer: { account_type: 'SAVINGS' } } } }));
  it('refuses a lower-case nationality (ISO 3166-1 alpha-2)', () =>
    expectRejectedAt(RefundBody, { ...fixtures.refund(), customer_payer: { nationality: 'ar' } }, 'customer_payer.nationality'));
});

describe("CreatePaymentBody: a seller's address (Create Payment requires it)", () => {
  const address = { address_line_1: 'Rua A 100', city: 'Sao Paulo', country: 'BR' };
  it('refuses seller_details without an address', () =>
    expectRejectedAt(CreatePaymentBody, { ...fixtures.createPayment(), additional_data: { seller_details: { reference: '53568972000143' } } }, 'additional_data.seller_details.address'));
  it('accepts seller_details with one', () => expectAccepted(CreatePaymentBody, { ...fixtures.createPayment(), additional_data: { seller_details: { reference: '53568972000143', address } } }));
});
