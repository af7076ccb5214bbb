import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import type { SandboxMerchant } from '@switchyard/contract';
import { freshSchema, testDatabaseUrl } from '../test-support/database.js';
import { clientsFor, idemKey, keysOf, newMerchant, pay, raw, startSandbox, type RunningSandbox } from '../test-support/harness.js';
import { startReceiver } from '../test-support/receiver.js';
import { MERCHANT_FRESH_FOR_MS } from './merchant-cache.js';
import { PostgresStore } from './postgres.js';

const url = testDatabaseUrl('replicas.test.ts');

describe.skipIf(!url)('two sandbox replicas on one PostgreSQL', () => {
  let a: RunningSandbox;
  let b: RunningSandbox;
  let drop: () => Promise<void>;
  let schema: string;
  let merchant: SandboxMerchant;

  beforeAll(async () => {
    const db = await freshSchema(url as string);
    drop = db.drop;
    schema = db.schema;
    a = await startSandbox({ databaseUrl: url, databaseSchema: db.schema });
    // B keeps merchant records for a minute: what finds a change made through A is B's check, not the expiry.
    b = await startSandbox({ databaseUrl: url, databaseSchema: db.schema }, { store: await PostgresStore.connect({ connectionString: url as string, schema: db.schema, merchantFreshForMs: 60_000 }) });
    merchant = await newMerchant(a.url);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await drop?.();
  });

  it('share tenants, data and clocks', async () => {
    const viaA = clientsFor(a.url, merchant);
    const viaB = clientsFor(b.url, merchant);
    const customer = await viaA.customers.create({ body: { merchant_customer_id: 'shared-1' } });
    if (customer.status !== 201) throw new Error('setup');
    expect(await viaB.customers.get({ params: { customer_id: customer.body.id } })).toMatchObject({ status: 200, body: { id: customer.body.id } });
    await viaA.sandbox.advanceClock({ body: { seconds: 3600 } });
    expect(await viaB.sandbox.getClock()).toMatchObject({ status: 200, body: { offset_seconds: 3600 } });
  });

  it('never refund more than captured when refunds race through both', async () => {
    const viaA = clientsFor(a.url, merchant);
    const viaB = clientsFor(b.url, merchant);
    const p = await pay(viaA, merchant, { value: 100 });
    const ids = { id: p.id, transaction_id: p.transactions?.id as string };
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? viaA : viaB).payments.refund({ params: ids, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 15 } }, headers: { 'x-idempotency-key': idemKey() } })),
    );
    const ok = results.filter((r) => r.status === 200).length;
    const read = await viaB.payments.get({ params: { payment_id: p.id } });
    if (read.status !== 200) throw new Error('read');
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(read.body.amount.refunded).toBe(15 * ok);
    expect(read.body.amount.refunded).toBeLessThanOrEqual(100);
  });

  it('process one idempotency key once across both', async () => {
    const viaA = clientsFor(a.url, merchant);
    const viaB = clientsFor(b.url, merchant);
    const session = await viaA.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: merchant.account_ids[0] as string } });
    if (session.status !== 200) throw new Error('setup');
    const body = { ...fixtures.createPayment(session.body.checkout_session), account_id: merchant.account_ids[0] as string };
    const key = idemKey();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? viaA : viaB).payments.create({ body, headers: { 'x-idempotency-key': key } })));
    // A duplicate still running answers REQUEST_IN_PROCESS at once (upstream), which the client retries.
    const created = results.filter((r) => r.status === 201);
    for (const r of results.filter((x) => x.status !== 201)) expect(r).toMatchObject({ status: 400, body: { code: 'REQUEST_IN_PROCESS' } });
    expect(new Set(created.map((r) => (r.body as { id: string }).id)).size).toBe(1);
  });

  it('never reverse more than the transfer when reversals race through both', async () => {
    const viaA = clientsFor(a.url, merchant);
    const viaB = clientsFor(b.url, merchant);
    const accountId = merchant.account_ids[0] as string;
    const r = await viaA.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: accountId } });
    if (r.status !== 201) throw new Error('setup');
    await viaA.sandbox.fundRecipientBalance({ params: { recipient_id: r.body.id }, body: { amount: { currency: 'BRL', value: 50 } } });
    const t = await viaA.marketplace.createTransfer({ body: { ...fixtures.createTransfer(r.body.id), account_id: accountId, amount: { currency: 'BRL', value: 50 } }, headers: { 'x-idempotency-key': idemKey() } });
    if (t.status !== 201) throw new Error('setup');
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? viaA : viaB).marketplace.reverseTransfer({ params: { transfer_id: t.body.id }, body: { ...fixtures.reverseTransfer(), account_id: accountId, amount: { currency: 'BRL', value: 10 } }, headers: { 'x-idempotency-key': idemKey() } })),
    );
    expect(results.filter((x) => x.status === 200)).toHaveLength(5);
  });

  // Transactions of different records, and of different merchants, now run side by side (each
  // holds only what it reads): every rule above must still hold with eight merchants racing at once.
  it('keep every rule with eight merchants racing at once through both', async () => {
    const merchants = await Promise.all(Array.from({ length: 8 }, () => newMerchant(a.url)));
    await Promise.all(
      merchants.map(async (m) => {
        const via = (i: number) => clientsFor(i % 2 ? a.url : b.url, m);
        const accountId = m.account_ids[0] as string;
        const p = await pay(via(0), m, { value: 100 });
        const ids = { id: p.id, transaction_id: p.transactions?.id as string };
        const session = await via(0).checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
        if (session.status !== 200) throw new Error('setup');
        const paymentBody = { ...fixtures.createPayment(session.body.checkout_session), account_id: accountId };
        const key = idemKey();
        const [refunds, creates, customers] = await Promise.all([
          Promise.all(Array.from({ length: 8 }, (_, i) => via(i).payments.refund({ params: ids, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 15 } }, headers: { 'x-idempotency-key': idemKey() } }))),
          Promise.all(Array.from({ length: 6 }, (_, i) => via(i).payments.create({ body: paymentBody, headers: { 'x-idempotency-key': key } }))),
          Promise.all(Array.from({ length: 6 }, (_, i) => via(i).customers.create({ body: { merchant_customer_id: 'same-everywhere' } }))),
        ]);
        const read = await via(1).payments.get({ params: { payment_id: p.id } });
        if (read.status !== 200) throw new Error('read');
        const refunded = refunds.filter((r) => r.status === 200).length;
        expect(refunded).toBeGreaterThanOrEqual(1);
        expect(read.body.amount.refunded).toBe(15 * refunded);
        expect(read.body.amount.refunded).toBeLessThanOrEqual(100);
        for (const r of creates.filter((x) => x.status !== 201)) expect(r).toMatchObject({ status: 400, body: { code: 'REQUEST_IN_PROCESS' } });
        expect(new Set(creates.filter((r) => r.status === 201).map((r) => (r.body as { id: string }).id)).size).toBe(1);
        expect(customers.filter((r) => r.status === 201)).toHaveLength(1);
        for (const r of customers.filter((x) => x.status !== 201)) expect(r).toMatchObject({ status: 400, body: { code: 'CUSTOMER_ID_DUPLICATED' } });
      }),
    );
  });

  // A replica authenticates from the merchant record it keeps (store/merchant-cache.ts): each
  // request below reaches B holding the record from before the change made through A.
  describe('act at once on a merchant changed through the other', () => {
    const DAY = 86_400;
    /** A merchant whose record B keeps from a request it answered. */
    async function keptByB() {
      const m = await newMerchant(a.url);
      const viaB = clientsFor(b.url, m);
      expect(await viaB.customers.get({ params: { customer_id: crypto.randomUUID() } })).toMatchObject({ status: 400, body: { code: 'CUSTOMER_NOT_FOUND' } });
      return { m, viaA: clientsFor(a.url, m), viaB };
    }

    it('stamps with the clock advanced through the other, and shows it', async () => {
      const { viaA, viaB } = await keptByB();
      await viaA.sandbox.advanceClock({ body: { seconds: 30 * DAY } });
      const created = await viaB.customers.create({ body: { merchant_customer_id: 'after-advance' } });
      if (created.status !== 201) throw new Error(`create: ${created.status}`);
      expect(Date.parse(created.body.created_at) - Date.now()).toBeGreaterThan(29 * DAY * 1000);
      expect(await viaB.sandbox.getClock()).toMatchObject({ status: 200, body: { offset_seconds: 30 * DAY } });
    });

    it('applies a fault rule made through the other, also to a request the contract refuses', async () => {
      for (const body of [{ merchant_customer_id: 'valid' }, { merchant_customer_id: 42 }]) {
        const { m, viaA } = await keptByB();
        await viaA.sandbox.createFaultRule({ body: { match: { operation_id: 'createCustomer' }, effect: { type: 'status', status: 503 } } });
        const res = await fetch(`${b.url}/v1/customers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'public-api-key': m.public_api_key, 'private-secret-key': m.private_secret_key },
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(503);
      }
    });

    it('accepts the accounts a snapshot imported through the other', async () => {
      const source = await newMerchant(a.url);
      const snapshot = await clientsFor(a.url, source).sandbox.exportSnapshot();
      if (snapshot.status !== 200) throw new Error('export');
      const { viaA, viaB } = await keptByB();
      expect((await viaA.sandbox.importSnapshot({ body: snapshot.body })).status).toBe(200);
      const session = await viaB.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: source.account_ids[0] as string } });
      expect(session.status).toBe(200);
      const exported = await viaB.sandbox.exportSnapshot();
      expect(exported.status === 200 && exported.body.merchant.account_ids).toEqual(source.account_ids);
    });

    const INVALID_CREDENTIALS = { status: 401, body: { code: 'INVALID_CREDENTIALS', messages: ['invalid API credentials'] } };

    /** A merchant B keeps, with its secret key rotated through A: the old key and the new one. */
    async function rotatedThroughA() {
      const { m, viaA, viaB } = await keptByB();
      const rotated = await viaA.sandbox.rotateSecretKey();
      if (rotated.status !== 200) throw new Error(`rotate: ${rotated.status}`);
      return { m, viaB, rotated: rotated.body };
    }

    // B still keeps the record from before the rotation (for a minute): each refusal below is the
    // request's own finding, each on a merchant of its own so no earlier request refreshed B's record.
    it('refuses a secret key rotated through the other at once, wherever the request meets the merchant', async () => {
      const created = await rotatedThroughA();
      // Its first transaction's check fails: the request reads the merchant again and is refused, having written nothing.
      expect(await created.viaB.customers.create({ body: { merchant_customer_id: 'old-key' } })).toMatchObject(INVALID_CREDENTIALS);
      expect(await clientsFor(a.url, created.rotated).customers.create({ body: { merchant_customer_id: 'old-key' } })).toMatchObject({ status: 201 });
      // A refusal while the record is not known current reads it again: the keys' refusal comes first.
      const refused = await rotatedThroughA();
      expect(await raw(b.url, '/v1/customers', { method: 'POST', headers: { ...keysOf(refused.m), 'content-type': 'application/json' }, body: JSON.stringify({ merchant_customer_id: 42 }) })).toMatchObject(INVALID_CREDENTIALS);
      // What reads the merchant itself (the clock, a change of the merchant) finds the new key.
      const clock = await rotatedThroughA();
      expect(await clock.viaB.sandbox.getClock()).toMatchObject(INVALID_CREDENTIALS);
      const again = await rotatedThroughA();
      expect(await again.viaB.sandbox.rotateSecretKey()).toMatchObject(INVALID_CREDENTIALS);
      expect((await clientsFor(a.url, again.rotated).sandbox.getClock()).status).toBe(200);
    });

    it('takes the key rotated through the other at once, and refuses the old one from then on', async () => {
      const { m, viaB, rotated } = await rotatedThroughA();
      // The kept record refuses the new key: authentication reads the merchant again, and keeps it.
      expect((await clientsFor(b.url, rotated).sandbox.listRequests({ query: {} })).status).toBe(200);
      expect((await clientsFor(b.url, rotated).customers.create({ body: { merchant_customer_id: 'new-key' } })).status).toBe(201);
      expect(await raw(b.url, '/sandbox/requests', { headers: keysOf(m) })).toMatchObject(INVALID_CREDENTIALS);
      expect(await viaB.customers.get({ params: { customer_id: crypto.randomUUID() } })).toMatchObject(INVALID_CREDENTIALS);
    });

    describe('on a replica that keeps records for the documented second', () => {
      let c: RunningSandbox;
      beforeAll(async () => {
        c = await startSandbox({ databaseUrl: url, databaseSchema: schema });
      });
      afterAll(async () => {
        await c?.stop();
      });

      // The journal lives in the process: a request for it meets neither a transaction nor the
      // merchant's row, so only the kept record's age bounds how long the old key reads it.
      it('refuses the old key within MERCHANT_FRESH_FOR_MS also where the request reaches no store', async () => {
        const m = await newMerchant(a.url);
        expect(await clientsFor(c.url, m).customers.get({ params: { customer_id: crypto.randomUUID() } })).toMatchObject({ status: 400, body: { code: 'CUSTOMER_NOT_FOUND' } });
        // The read that kept the record came before this moment, so the bound ends before `boundEnds`.
        const boundEnds = performance.now() + MERCHANT_FRESH_FOR_MS;
        const rotated = await clientsFor(a.url, m).sandbox.rotateSecretKey();
        if (rotated.status !== 200) throw new Error(`rotate: ${rotated.status}`);
        // Every request sent after the bound must be refused, however slow the machine: one the
        // replica accepted although it was sent past the bound would break it. Counted, not
        // timed, so a loaded machine can make the wait longer but never the test wrong.
        const acceptedPastBound: number[] = [];
        await vi.waitFor(
          async () => {
            const sentAt = performance.now();
            const res = await raw(c.url, '/sandbox/requests', { headers: keysOf(m) });
            if (res.status === 200 && sentAt > boundEnds) acceptedPastBound.push(sentAt - boundEnds);
            expect(res).toMatchObject(INVALID_CREDENTIALS);
          },
          { timeout: 30_000, interval: 20 },
        );
        expect(acceptedPastBound).toEqual([]);
        for (const replica of [a, b, c]) expect((await clientsFor(replica.url, rotated.body).sandbox.listRequests({ query: {} })).status).toBe(200);
      });
    });
  });

  it('attempt a webhook delivery once when both dispatchers try it at the same moment', async () => {
    const receiver = await startReceiver();
    try {
      const m = await newMerchant(a.url);
      const viaA = clientsFor(a.url, m);
      await a.sandbox.dispatcher.stop();
      await b.sandbox.dispatcher.stop();
      await viaA.webhooks.create({ body: { account_id: m.account_ids[0] as string, name: 'race', url: receiver.url, payment_triggers: ['PURCHASE'] } });
      await pay(viaA, m);
      const list = await viaA.sandbox.listWebhookDeliveries({ query: {} });
      if (list.status !== 200 || !list.body[0]) throw new Error('no delivery');
      const id = list.body[0].id;
      await Promise.all([a.sandbox.dispatcher.attempt(m.id, id, false), b.sandbox.dispatcher.attempt(m.id, id, false), a.sandbox.dispatcher.attempt(m.id, id, false)]);
      const after = await viaA.sandbox.listWebhookDeliveries({ query: {} });
      expect(after.status === 200 && after.body[0]?.attempts).toHaveLength(1);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
