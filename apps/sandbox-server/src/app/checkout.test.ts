import { describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { clientsFor, idemKey, newMerchant, sandboxWithMerchant } from '../test-support/harness.js';

const w = sandboxWithMerchant();

describe('checkout sessions (§4.10)', () => {
  // docs/fidelity.md, absent values: upstream answers a session created without
  // a workflow, a checkout or an installments plan with SDK_CHECKOUT, the account's default checkout
  // and `installments: {plan_id: null, plan: null}` (Create Checkout Session); strings not sent
  // are "". §2.8 keeps `metadata` nullable.
  it('answers the fields a minimal request leaves out with upstream defaults and empty values, never null strings', async () => {
    const { workflow: _w, metadata: _m, ...minimal } = fixtures.createCheckoutSession();
    const res = await w.clients.checkout.createSession({ body: { ...minimal, account_id: w.accountId } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toMatchObject({ workflow: 'SDK_CHECKOUT', callback_url: '', customer_id: '', metadata: null, installments: { plan_id: null, plan: null } });
    expect(res.body.checkout_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const again = await w.clients.checkout.createSession({ body: { ...minimal, account_id: w.accountId } });
    expect(again).toMatchObject({ status: 200, body: { checkout_id: res.body.checkout_id } });
  });

  it('echoes the checkout and installments plan a session names', async () => {
    const checkoutId = '6822f80c-684e-41a3-8628-78963d3d60f7';
    const res = await w.clients.checkout.createSession({
      body: { ...fixtures.createCheckoutSession(), account_id: w.accountId, checkout_id: checkoutId, installments: { plan_id: 'plan-3' } },
    });
    expect(res).toMatchObject({ status: 200, body: { checkout_id: checkoutId, installments: { plan_id: 'plan-3', plan: null } } });
  });

  it('creates a session (200) echoing the request', async () => {
    const res = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toMatchObject({ merchant_order_id: 'order-0001', country: 'AR', amount: { currency: 'ARS', value: 99.99 }, workflow: 'CHECKOUT' });
    expect(res.body.checkout_session).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('requires an existing customer_id (400 CUSTOMER_NOT_FOUND)', async () => {
    const res = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession('00000000-0000-4000-8000-000000000000'), account_id: w.accountId } });
    expect(res).toMatchObject({ status: 400, body: { code: 'CUSTOMER_NOT_FOUND' } });
  });

  it('links a session to an existing customer', async () => {
    const customer = await w.clients.customers.create({ body: { merchant_customer_id: 'checkout-cust' } });
    if (customer.status !== 201) throw new Error('setup');
    const res = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(customer.body.id), account_id: w.accountId } });
    expect(res).toMatchObject({ status: 200, body: { customer_id: customer.body.id } });
  });

  const payBody = (session: string, accountId = w.accountId) => ({ ...fixtures.createPayment(session, '4111111111111111'), account_id: accountId });

  it('takes one payment per session', async () => {
    const session = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId } });
    if (session.status !== 200) throw new Error('setup');
    const first = await w.clients.payments.create({ body: payBody(session.body.checkout_session), headers: { 'x-idempotency-key': idemKey() } });
    expect(first.status).toBe(201);
    const second = await w.clients.payments.create({ body: payBody(session.body.checkout_session), headers: { 'x-idempotency-key': idemKey() } });
    expect(second).toMatchObject({ status: 400, body: { code: 'INVALID_STATE', messages: [expect.stringContaining('takes one payment')] } });
  });

  // The expiry is checked to the second, on a sandbox of its own whose clock is frozen (a seed
  // freezes it): sandbox time moves only when a test advances it. On a clock that follows the
  // machine's, a slow machine spends that second between the session and the payment.
  const frozen = sandboxWithMerchant({ seed: 'checkout-expiry' });

  it('expires after 5 hours of sandbox time', async () => {
    const session = await frozen.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: frozen.accountId } });
    if (session.status !== 200) throw new Error('setup');
    await frozen.clients.sandbox.advanceClock({ body: { seconds: 5 * 3600 } });
    const res = await frozen.clients.payments.create({ body: payBody(session.body.checkout_session, frozen.accountId), headers: { 'x-idempotency-key': idemKey() } });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_STATE', messages: [expect.stringContaining('expired')] } });
  });

  it('is still payable just before 5 hours', async () => {
    const session = await frozen.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: frozen.accountId } });
    if (session.status !== 200) throw new Error('setup');
    await frozen.clients.sandbox.advanceClock({ body: { seconds: 5 * 3600 - 1 } });
    const res = await frozen.clients.payments.create({ body: payBody(session.body.checkout_session, frozen.accountId), headers: { 'x-idempotency-key': idemKey() } });
    expect(res.status).toBe(201);
  });

  it('refuses a payment whose amount differs from the session', async () => {
    const session = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId } });
    if (session.status !== 200) throw new Error('setup');
    const body = payBody(session.body.checkout_session);
    body.amount = { currency: 'ARS', value: 10 };
    const res = await w.clients.payments.create({ body, headers: { 'x-idempotency-key': idemKey() } });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_AMOUNT' } });
  });

  it('answers an unknown session with CHECKOUT_SESSION_NOT_FOUND', async () => {
    const res = await w.clients.payments.create({ body: payBody('00000000-0000-4000-8000-000000000000'), headers: { 'x-idempotency-key': idemKey() } });
    expect(res).toMatchObject({ status: 400, body: { code: 'CHECKOUT_SESSION_NOT_FOUND' } });
  });
});

describe('payment links (§4.12)', () => {
  // Upstream's answer carries `merchant_image: ""` and `additional_data` with each
  // group null (Create Payment Link; §2.9: "additional_data (airline, order, seller_details;
  // each nullable)"); a `callback_url` not sent is "" as well.
  it('answers a link without callback, image or additional data with empty strings and an additional_data of null groups', async () => {
    const res = await w.clients.checkout.createPaymentLink({ body: { ...fixtures.createPaymentLink(), account_id: w.accountId, availability: undefined } });
    expect(res).toMatchObject({ status: 200, body: { callback_url: '', merchant_image: '', additional_data: { airline: null, order: null, seller_details: null } } });
  });

  // Upstream types `merchant_order_id` and `description` strings, not nullable
  // (Create Payment Link), and §4.12 makes both optional: one not sent is "", never null
  // (docs/fidelity.md, "Absent values"). The nulls left are the fields §2.9 marks nullable
  // (metadata, payments, installments_plan, customer_payer, taxes, each additional_data group)
  // and an availability without an end (upstream's schema gives `finish_at` no type).
  it('answers a link created with only its required fields with "" for every string not sent, null only where §2.9 allows it', async () => {
    const { account_id: _a, country, amount, payment_method_types } = fixtures.createPaymentLink();
    const res = await w.clients.checkout.createPaymentLink({ body: { account_id: w.accountId, country, amount, payment_method_types } });
    expect(res).toMatchObject({ status: 200, body: { merchant_order_id: '', description: '', callback_url: '', merchant_image: '' } });
    const nulls = Object.entries(res.body).flatMap(([key, value]: [string, unknown]) =>
      value === null ? [key] : value && typeof value === 'object' ? Object.entries(value).flatMap(([inner, v]) => (v === null ? [`${key}.${inner}`] : [])) : [],
    );
    expect(nulls.sort()).toEqual(
      ['additional_data.airline', 'additional_data.order', 'additional_data.seller_details', 'availability.finish_at', 'customer_payer', 'installments_plan', 'metadata', 'payments', 'taxes'].sort(),
    );
  });

  it('creates a link (200) with a code, a hosted checkout URL on the sandbox and no payments', async () => {
    const res = await w.clients.checkout.createPaymentLink({ body: { ...fixtures.createPaymentLink(), account_id: w.accountId, availability: undefined } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toMatchObject({ status: 'CREATED', payments_number: 0, capture: true, one_time_use: true, amount: { currency: 'ARS', value: 150.5 } });
    expect(res.body.checkout_url).toBe(`${w.sb.url}/checkout/links/${res.body.code}`);
    const page = await fetch(res.body.checkout_url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('150.5 ARS');
    expect(html).toContain('data-card-form');
  });

  it('shows a link as expired once the w.merchant\'s clock passes finish_at, and 404s unknown codes', async () => {
    const m = await newMerchant(w.sb.url);
    const c = clientsFor(w.sb.url, m);
    const clock = await c.sandbox.getClock();
    if (clock.status !== 200) throw new Error('setup');
    const finish = new Date(Date.parse(clock.body.now) + 3600_000).toISOString();
    const link = await c.checkout.createPaymentLink({ body: { ...fixtures.createPaymentLink(), account_id: m.account_ids[0] as string, availability: { finish_at: finish } } });
    if (link.status !== 200) throw new Error('setup');
    expect(await (await fetch(link.body.checkout_url)).text()).toContain('data-card-form');
    await c.sandbox.advanceClock({ body: { seconds: 3600 } });
    const expired = await fetch(link.body.checkout_url);
    expect(expired.status).toBe(409);
    expect(await expired.text()).toContain(`This link expired at ${finish}`);
    expect((await fetch(`${w.sb.url}/checkout/links/nope`)).status).toBe(404);
  });

  it('defaults capture to true and keeps an explicit false', async () => {
    const body = { ...fixtures.createPaymentLink(), account_id: w.accountId, availability: undefined };
    delete body.capture;
    expect((await w.clients.checkout.createPaymentLink({ body })).body).toMatchObject({ capture: true });
    expect((await w.clients.checkout.createPaymentLink({ body: { ...body, capture: false } })).body).toMatchObject({ capture: false });
  });

  it('refuses an availability window that already ended (sandbox time)', async () => {
    const clock = await w.clients.sandbox.getClock();
    if (clock.status !== 200) throw new Error('setup');
    const past = new Date(Date.parse(clock.body.now) - 60_000).toISOString();
    const res = await w.clients.checkout.createPaymentLink({
      body: { ...fixtures.createPaymentLink(), account_id: w.accountId, availability: { start_at: '2020-01-01T00:00:00Z', finish_at: past } },
    });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: [expect.stringContaining('availability.finish_at')] } });
  });

  it('keeps a future availability window', async () => {
    const res = await w.clients.checkout.createPaymentLink({
      body: { ...fixtures.createPaymentLink(), account_id: w.accountId, availability: { start_at: '2099-01-01T00:00:00Z', finish_at: '2099-02-01T00:00:00Z' } },
    });
    expect(res).toMatchObject({ status: 200, body: { availability: { start_at: '2099-01-01T00:00:00Z', finish_at: '2099-02-01T00:00:00Z' } } });
  });
});
