import { describe, expect, it } from 'vitest';
import { callbackWith, paymentBody, wentThrough, type Checkout, type CheckoutPayment } from './hosted-checkout.js';

const ACCOUNT = '4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31';
const SESSION = '0b6a2c1e-4f3d-4a5b-9c8d-7e6f5a4b3c2d';
const checkout: Checkout = {
  target: { kind: 'link', code: 'abc123def456' },
  link: { id: 'l1', code: 'abc123def456', one_time_use: false },
  account_id: ACCOUNT,
  country: 'AR',
  description: 'Order 7',
  merchant_order_id: 'order-7',
  amount: { currency: 'ARS', value: 10.5 },
  methods: ['CARD', 'PIX'],
  callback_url: 'https://shop.example/back?x=1',
  capture: false,
  vault_on_success: true,
  customer_payer: null,
  state: { payable: true },
};
const card = { number: '4111111111111111', expiration_month: 11, expiration_year: 2030, security_code: '123' };
const paid: CheckoutPayment = { payment_id: 'p1', status: 'SUCCEEDED', sub_status: 'APPROVED', merchant_order_id: 'order-7', redirect_url: null, awaiting_challenge: false };

describe('the payment a hosted checkout asks for', () => {
  it("is the API's create-payment request: a link's by redirect, with its capture and vault_on_success", () => {
    expect(paymentBody(checkout, { type: 'CARD', card })).toMatchObject({
      account_id: ACCOUNT,
      merchant_order_id: 'order-7',
      description: 'Order 7',
      workflow: 'REDIRECT',
      callback_url: 'https://shop.example/back?x=1',
      payment_method: { type: 'CARD', vault_on_success: true, detail: { card: { capture: false, card_data: card } } },
    });
  });

  it("keeps the link's payer as the link stored it, which a payment's schema would refuse (a 2-letter first name)", () => {
    const payer = { first_name: 'Al', gender: 'X' };
    expect(paymentBody({ ...checkout, customer_payer: payer }, { type: 'CARD', card }).customer_payer).toEqual(payer);
  });

  it("goes with a session's id, and refuses what the contract refuses", () => {
    const session: Checkout = { ...checkout, target: { kind: 'session', id: SESSION }, callback_url: '' };
    const body = paymentBody(session, { type: 'CARD', card });
    expect(body).toMatchObject({ checkout: { session: SESSION }, workflow: 'CHECKOUT' });
    expect(body.callback_url).toBeUndefined();
    expect(() => paymentBody(checkout, { type: 'CARD', card: { ...card, security_code: '12345' } })).toThrow(/security_code/);
  });
});

describe('the way back to the merchant', () => {
  it('adds the payment identifiers to callback_url, keeping its own query', () => {
    const url = new URL(callbackWith(checkout.callback_url, checkout.target, paid) ?? '');
    expect(Object.fromEntries(url.searchParams)).toEqual({ x: '1', payment_id: 'p1', status: 'SUCCEEDED', sub_status: 'APPROVED', merchant_order_id: 'order-7', payment_link_code: 'abc123def456' });
    expect(new URL(callbackWith('http://shop.example/', { kind: 'session', id: SESSION }, paid) ?? '').searchParams.get('checkout_session')).toBe(SESSION);
  });

  it('is no redirect to an address that is not http(s)', () => {
    expect(['', 'www.example.com', 'javascript:alert(1)', 'https://'].map((u) => callbackWith(u, checkout.target, paid))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('is taken at once only by a payment that went through', () => {
    expect([wentThrough(paid), wentThrough({ ...paid, status: 'PENDING' }), wentThrough({ ...paid, status: 'DECLINED' }), wentThrough({ ...paid, status: 'PENDING', awaiting_challenge: true })]).toEqual([true, true, false, false]);
  });
});
