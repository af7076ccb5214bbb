import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, InvalidRequestError, isSwitchyardError, type ResponseInfo } from '@switchyard/client';
import { fixtures, MINIMAL_PDF_BASE64 } from '@switchyard/contract/fixtures';
import { startWorld, type World } from './sandbox.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.stop());

async function paidPayment(card = '4111111111111111', value = 120) {
  const { client, accountId } = world;
  const customer = await client.customers.create({ body: { ...fixtures.createCustomer(), merchant_customer_id: `cust-${crypto.randomUUID()}` } });
  const session = await client.checkout.createSession({ body: { ...fixtures.createCheckoutSession(customer.id), account_id: accountId, amount: { currency: 'ARS', value } } });
  return client.payments.create({ body: { ...fixtures.createPayment(session.checkout_session, card), account_id: accountId, amount: { currency: 'ARS', value } } });
}

describe('customers, checkout and payments through the client', () => {
  it('pays, refunds partially and fully, and reads the payment back', async () => {
    const { client } = world;
    const payment = await paidPayment();
    expect(payment).toMatchObject({ status: 'SUCCEEDED', amount: { value: 120, captured: 120 } });
    const charge = payment.transactions?.id as string;
    const partial = await client.payments.refund({ params: { id: payment.id, transaction_id: charge }, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 20.5 } } });
    expect(partial).toMatchObject({ status: 'SUCCEEDED', sub_status: 'PARTIALLY_REFUNDED', amount: { refunded: 20.5 } });
    const rest = await client.payments.refund({ params: { id: payment.id, transaction_id: charge }, body: fixtures.refund() });
    expect(rest).toMatchObject({ status: 'REFUNDED', amount: { refunded: 120 }, transactions: { amount: 99.5 } });
    const read = await client.payments.get({ params: { payment_id: payment.id } });
    expect(read).toMatchObject({ status: 'REFUNDED', amount: { refunded: 120 }, transactions_history: null });
    expect(read.transactions.map((t) => [t.type, t.amount])).toEqual([['PURCHASE', 120], ['REFUND', 20.5], ['REFUND', 99.5]]);
  });

  it('throws typed errors for business rules', async () => {
    const payment = await paidPayment();
    const error = await world.client.payments
      .refund({ params: { id: payment.id, transaction_id: payment.transactions?.id as string }, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 500 } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(isSwitchyardError(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_AMOUNT', requestId: expect.any(String) });
  });

  it('returns a declined payment as a value, not an error', async () => {
    const payment = await paidPayment('4507990000000010');
    expect(payment).toMatchObject({ status: 'DECLINED', transactions: { response_code: 'INSUFFICIENT_FUNDS' } });
  });

  it('authorizes, captures and cancels-or-refunds', async () => {
    const { client, accountId } = world;
    const session = await client.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
    const body = { ...fixtures.createPayment(session.checkout_session), account_id: accountId };
    body.payment_method.detail = { card: { ...body.payment_method.detail?.card, capture: false } };
    const auth = await client.payments.create({ body });
    expect(auth).toMatchObject({ status: 'PENDING', sub_status: 'AUTHORIZED' });
    const captured = await client.payments.capture({ params: { payment_id: auth.id, transaction_id: auth.transactions?.id as string }, body: fixtures.capture() });
    // Capture answers the CAPTURE transaction with the payment inside (upstream Capture Authorization).
    expect(captured).toMatchObject({ type: 'CAPTURE', status: 'SUCCEEDED', payment: { status: 'SUCCEEDED', sub_status: 'CAPTURED' } });
    const undone = await client.payments.cancelOrRefund({ params: { payment_id: auth.id }, body: fixtures.cancelOrRefund() });
    expect(undone).toMatchObject({ type: 'REFUND', status: 'REFUNDED', payment: { status: 'REFUNDED' } });
  });

  // The spec does not define the retrieve route (§4), so upstream's Retrieve Payment by ID
  // governs: `transactions` lists every transaction of the payment, oldest first.
  it('retrieves an authorized, captured then refunded payment with all its transactions in order', async () => {
    const { client, accountId } = world;
    const session = await client.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
    const body = { ...fixtures.createPayment(session.checkout_session), account_id: accountId };
    body.payment_method.detail = { card: { ...body.payment_method.detail?.card, capture: false } };
    const auth = await client.payments.create({ body });
    const authorization = auth.transactions?.id as string;
    await client.payments.capture({ params: { payment_id: auth.id, transaction_id: authorization }, body: fixtures.capture() });
    const captured = await client.payments.get({ params: { payment_id: auth.id } });
    const capture = captured.transactions.find((t) => t.type === 'CAPTURE')?.id as string;
    await client.payments.refund({ params: { id: auth.id, transaction_id: capture }, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 10 } } });
    const read = await client.payments.get({ params: { payment_id: auth.id } });
    expect(read.transactions.map((t) => [t.type, t.status])).toEqual([['AUTHORIZE', 'SUCCEEDED'], ['CAPTURE', 'SUCCEEDED'], ['REFUND', 'SUCCEEDED']]);
    expect(read.transactions.slice(0, 2).map((t) => t.id)).toEqual([authorization, capture]);
    const times = read.transactions.map((t) => Date.parse(t.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(read).toMatchObject({ sub_status: 'PARTIALLY_REFUNDED', amount: { refunded: 10 }, transactions_history: null });
  });

  it('disputes a chargeback with PDF evidence and wins', async () => {
    const { client, accountId } = world;
    const payment = await paidPayment();
    const cb = await client.sandbox.chargeback({ params: { payment_id: payment.id }, body: { amount: 50 } });
    const disputed = await client.payments.dispute({
      params: { payment_id: payment.id, transaction_id: cb.transactions?.id as string },
      body: { account_id: accountId, evidence: [{ file_name: 'receipt.pdf', content_type: 'application/pdf', content_category: 'RECEIPT', content: MINIMAL_PDF_BASE64 }] },
    });
    expect(disputed).toMatchObject({ status: 'IN_DISPUTE', sub_status: 'PENDING_REVIEW' });
    expect(await client.sandbox.disputeOutcome({ params: { payment_id: payment.id }, body: { outcome: 'WON' } })).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('replays an idempotent call made twice with the same key', async () => {
    const { client, accountId } = world;
    const session = await client.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
    const body = { ...fixtures.createPayment(session.checkout_session), account_id: accountId };
    const first = await client.payments.create({ body, idempotencyKey: 'e2e-order-1' });
    const again = await client.payments.create({ body, idempotencyKey: 'e2e-order-1' });
    expect(again).toEqual(first);
  });

  it('reports each call to the hooks', async () => {
    const seen: ResponseInfo[] = [];
    const merchant = await world.client.sandbox.createMerchant({ body: {} });
    const client = createClient({ baseUrl: world.url, publicApiKey: merchant.public_api_key, privateSecretKey: merchant.private_secret_key, onResponse: (i) => seen.push(i) });
    await client.sandbox.getClock();
    expect(seen).toEqual([expect.objectContaining({ method: 'GET', path: '/sandbox/clock', status: 200, attempt: 0, willRetry: false, requestId: expect.any(String) })]);
  });
});
