import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import type { SandboxMerchant } from '@switchyard/contract';
import { clientsFor, idemKey, keysOf, newMerchant, pay, raw, refundPending, startSandbox, type Clients, type RunningSandbox } from '../../test-support/harness.js';

let sb: RunningSandbox;
let clients: Clients;
let merchant: SandboxMerchant;
let accountId: string;
beforeAll(async () => {
  sb = await startSandbox();
  merchant = await newMerchant(sb.url);
  clients = clientsFor(sb.url, merchant);
  accountId = merchant.account_ids[0] as string;
});
afterAll(() => sb.stop());

async function session() {
  const res = await clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
  if (res.status !== 200) throw new Error('setup');
  return res.body.checkout_session;
}

const paymentBody = async () => ({ ...fixtures.createPayment(await session(), '4111111111111111'), account_id: accountId });

describe('idempotency', () => {
  it('replays the original status and body, marked idempotent-replayed, ignoring the retry\'s body', async () => {
    const key = idemKey();
    const first = await clients.payments.create({ body: await paymentBody(), headers: { 'x-idempotency-key': key } });
    const again = await clients.payments.create({ body: { ...(await paymentBody()), description: 'different' }, headers: { 'x-idempotency-key': key } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('turns 50 concurrent identical requests into one resource: each answer is it or REQUEST_IN_PROCESS', async () => {
    const key = idemKey();
    const body = await paymentBody();
    const send = () => raw(sb.url, '/v1/payments', { method: 'POST', headers: { ...keysOf(merchant), 'content-type': 'application/json', 'x-idempotency-key': key }, body: JSON.stringify(body) });
    const results = await Promise.all(Array.from({ length: 50 }, send));
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 201)) expect(r).toMatchObject({ status: 400, body: { code: 'REQUEST_IN_PROCESS' } });
    const ids = new Set(created.map((r) => (r.body as { id: string }).id));
    expect(ids.size).toBe(1);
    const replay = await send();
    expect(replay).toMatchObject({ status: 201, body: created[0]?.body });
    const events = await clients.sandbox.listEvents({ query: { type: 'payment.purchase', resource_id: [...ids][0] } });
    expect(events).toMatchObject({ status: 200, body: [{ type: 'payment.purchase' }] });
  });

  it('answers IDEMPOTENCY_DUPLICATED when the first request failed after processing began', async () => {
    const key = idemKey();
    const unknownSession = { ...(await paymentBody()), checkout: { session: '00000000-0000-4000-8000-000000000000' } };
    const first = await clients.payments.create({ body: unknownSession, headers: { 'x-idempotency-key': key } });
    expect(first).toMatchObject({ status: 400, body: { code: 'CHECKOUT_SESSION_NOT_FOUND' } });
    const retry = await clients.payments.create({ body: await paymentBody(), headers: { 'x-idempotency-key': key } });
    expect(retry).toMatchObject({ status: 400, body: { code: 'IDEMPOTENCY_DUPLICATED' } });
  });

  it('does not consume the key when validation rejected the request', async () => {
    const key = idemKey();
    const invalid = { ...(await paymentBody()), merchant_order_id: 'x' };
    expect(await clients.payments.create({ body: invalid, headers: { 'x-idempotency-key': key } })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
    expect((await clients.payments.create({ body: await paymentBody(), headers: { 'x-idempotency-key': key } })).status).toBe(201);
  });

  // Upstream answers 400 REQUEST_IN_PROCESS while the first request is processed, at once
  // (upstream's notes "Idempotency", rule 2; spec §5: "not shown").
  it('answers REQUEST_IN_PROCESS at once while the first request is still running', async () => {
    const m = await newMerchant(sb.url);
    const c = clientsFor(sb.url, m);
    const p = await pay(c, m, { value: 10 });
    const key = idemKey();
    const send = (latency: string) =>
      raw(sb.url, `/v1/payments/${p.id}/transactions/${p.transactions?.id}/refund`, {
        method: 'POST',
        headers: { ...keysOf(m), 'content-type': 'application/json', 'x-idempotency-key': key, 'x-sandbox-provider-latency-ms': latency },
        body: JSON.stringify(fixtures.refund()),
      });
    let slowSettled = false;
    // The window the second request must land in: wide enough for a machine 20x slower than usual.
    const slow = send('8000').finally(() => (slowSettled = true));
    await refundPending(c, p.id);
    expect(await send('0')).toMatchObject({ status: 400, body: { code: 'REQUEST_IN_PROCESS' } });
    expect(slowSettled).toBe(false);
    expect(await slow).toMatchObject({ status: 200, body: { status: 'REFUNDED' } });
    const replay = await send('0');
    expect(replay).toMatchObject({ status: 200, body: { status: 'REFUNDED' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('scopes keys per merchant', async () => {
    const key = idemKey();
    const mine = await clients.payments.create({ body: await paymentBody(), headers: { 'x-idempotency-key': key } });
    const other = await newMerchant(sb.url);
    const otherClients = clientsFor(sb.url, other);
    const s = await otherClients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: other.account_ids[0] as string } });
    if (s.status !== 200) throw new Error('setup');
    const theirs = await otherClients.payments.create({
      body: { ...fixtures.createPayment(s.body.checkout_session, '4111111111111111'), account_id: other.account_ids[0] as string },
      headers: { 'x-idempotency-key': key },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((theirs.body as { id: string }).id).not.toBe((mine.body as { id: string }).id);
  });

  it('forgets a key after 24 hours of sandbox time', async () => {
    const m = await newMerchant(sb.url);
    const c = clientsFor(sb.url, m);
    const p = await pay(c, m, { value: 10 });
    const key = idemKey();
    const refund = (value: number) =>
      c.payments.refund({ params: { id: p.id, transaction_id: p.transactions?.id as string }, body: { ...fixtures.refund(), amount: { currency: 'ARS', value } }, headers: { 'x-idempotency-key': key } });
    expect(await refund(1)).toMatchObject({ status: 200, body: { amount: { refunded: 1 } } });
    await c.sandbox.advanceClock({ body: { seconds: 23 * 3600 } });
    expect(await refund(1)).toMatchObject({ status: 200, body: { amount: { refunded: 1 } } });
    await c.sandbox.advanceClock({ body: { seconds: 3600 } });
    expect(await refund(2)).toMatchObject({ status: 200, body: { amount: { refunded: 3 } } });
  });

  it('refuses a key reused on another operation', async () => {
    const p = await pay(clients, merchant, { value: 10 });
    const key = idemKey();
    await clients.payments.refund({ params: { id: p.id, transaction_id: p.transactions?.id as string }, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 1 } }, headers: { 'x-idempotency-key': key } });
    const res = await clients.payments.cancelOrRefund({ params: { payment_id: p.id }, body: fixtures.cancelOrRefund(), headers: { 'x-idempotency-key': key } });
    expect(res).toMatchObject({ status: 400, body: { code: 'IDEMPOTENCY_DUPLICATED', messages: [expect.stringContaining('another operation')] } });
  });
});
