import { IdFactory } from '../runtime/ids.js';
import { BaseClock, SEEDED_EPOCH_MS } from '../runtime/clock.js';
import { MemoryStore } from '../store/memory.js';
import { createMerchant } from './sandbox.js';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { createLogger } from '../logger.js';
import { clientsFor, idemKey, newMerchant, pay, startSandbox } from '../test-support/harness.js';
import { sandboxForSuite } from '../test-support/stores.js';

const sb = sandboxForSuite();

describe('sandbox clock', () => {
  it('advances per merchant only', async () => {
    const a = clientsFor(sb.url, await newMerchant(sb.url));
    const b = clientsFor(sb.url, await newMerchant(sb.url));
    const before = await b.sandbox.getClock();
    const advanced = await a.sandbox.advanceClock({ body: { seconds: 3600 } });
    expect(advanced).toMatchObject({ status: 200, body: { offset_seconds: 3600, frozen: false } });
    const after = await b.sandbox.getClock();
    if (before.status !== 200 || after.status !== 200 || advanced.status !== 200) throw new Error('clock');
    expect(after.body.offset_seconds).toBe(0);
    expect(Date.parse(advanced.body.now) - Date.parse(after.body.now)).toBeGreaterThanOrEqual(3599_000);
  });

  it('stamps resources with the merchant\'s time', async () => {
    const m = await newMerchant(sb.url);
    const c = clientsFor(sb.url, m);
    await c.sandbox.advanceClock({ body: { seconds: 86400 * 30 } });
    const customer = await c.customers.create({ body: { merchant_customer_id: 'time-1' } });
    if (customer.status !== 201) throw new Error('setup');
    expect(Date.parse(customer.body.created_at) - Date.now()).toBeGreaterThan(86400_000 * 29);
  });

  it('refuses to go backwards', async () => {
    const c = clientsFor(sb.url, await newMerchant(sb.url));
    expect(await c.sandbox.advanceClock({ body: { seconds: -1 } })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
  });
});

describe('events and reset', () => {
  it('records every state change in order and filters by type and resource', async () => {
    const m = await newMerchant(sb.url);
    const c = clientsFor(sb.url, m);
    const p = await pay(c, m);
    await c.payments.refund({ params: { id: p.id, transaction_id: p.transactions?.id as string }, body: fixtures.refund(), headers: { 'x-idempotency-key': idemKey() } });
    const all = await c.sandbox.listEvents({ query: {} });
    if (all.status !== 200) throw new Error('events');
    expect(all.body.map((e) => e.type)).toEqual(['checkout_session.created', 'payment.purchase', 'payment.refund']);
    expect(all.body[2]).toMatchObject({ resource_type: 'payment', resource_id: p.id, account_id: m.account_ids[0], data: { status: 'REFUNDED' } });
    const refunds = await c.sandbox.listEvents({ query: { type: 'payment.refund' } });
    expect(refunds).toMatchObject({ status: 200, body: [{ type: 'payment.refund' }] });
  });

  it("wipes the caller's data only", async () => {
    const m1 = await newMerchant(sb.url);
    const m2 = await newMerchant(sb.url);
    const c1 = clientsFor(sb.url, m1);
    const c2 = clientsFor(sb.url, m2);
    const p1 = await pay(c1, m1);
    const p2 = await pay(c2, m2);
    const reset = await c1.sandbox.reset();
    expect(reset.status).toBe(200);
    if (reset.status === 200) expect(reset.body.deleted).toBeGreaterThan(0);
    expect(await c1.payments.get({ params: { payment_id: p1.id } })).toMatchObject({ status: 400, body: { code: 'PAYMENT_NOT_FOUND' } });
    expect((await c2.payments.get({ params: { payment_id: p2.id } })).status).toBe(200);
    expect(await c1.sandbox.listEvents({ query: {} })).toMatchObject({ status: 200, body: [] });
  });
});

// The key is shown once, in the creation response; the store keeps a digest.
describe('merchant secret keys at rest', () => {
  it('are shown once at creation and stored only as their HMAC digest', async () => {
    const m = await newMerchant(sb.url);
    const stored = await sb.sandbox.store.getMerchant(m.id);
    expect(stored).toBeDefined();
    expect(JSON.stringify(stored)).not.toContain(m.private_secret_key);
    expect(stored).not.toHaveProperty('private_secret_key');
    expect(stored?.secret_key_digest).toBe(sb.sandbox.store.secretKeys.digest(m.private_secret_key));
    expect((await clientsFor(sb.url, m).sandbox.getClock()).status).toBe(200);
    const wrong = clientsFor(sb.url, { ...m, private_secret_key: `${m.private_secret_key}x` });
    expect(await wrong.sandbox.getClock()).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
  });

  it('keep the demo merchant working, from its digest', async () => {
    const demo = clientsFor(sb.url, { public_api_key: 'sandbox_pk_demo_switchyard', private_secret_key: 'sandbox_sk_demo_switchyard' });
    expect((await demo.sandbox.getClock()).status).toBe(200);
    expect(JSON.stringify(await sb.sandbox.store.getMerchant('mer_demo'))).not.toContain('sandbox_sk_demo_switchyard');
  });
});

describe('--seed', () => {
  it('gives the same ids and times on every run', async () => {
    const run = async () => {
      const seeded = await startSandbox({ seed: 'snapshot' });
      try {
        const m = { public_api_key: 'sandbox_pk_demo_switchyard', private_secret_key: 'sandbox_sk_demo_switchyard' };
        const c = clientsFor(seeded.url, m);
        const customer = await c.customers.create({ body: { merchant_customer_id: 'seeded-1' } });
        const clock = await c.sandbox.getClock();
        return { customer: customer.body, clock: clock.body };
      } finally {
        await seeded.stop();
      }
    };
    const [first, second] = [await run(), await run()];
    expect(first).toEqual(second);
    expect(first.clock).toMatchObject({ now: '2026-01-01T00:00:00.000Z', frozen: true });
  });
});

describe('logs', () => {
  it('never contain API keys or card data', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { url, stop } = await startSandbox({ logLevel: 'debug' }, { logger: createLogger('debug', sink) });
    try {
      const m = await newMerchant(url);
      const c = clientsFor(url, m);
      await pay(c, m, { card: '4111111111111111' });
      await c.customers.create({ body: { merchant_customer_id: 'x' } });
      const text = lines.join('');
      expect(lines.length).toBeGreaterThan(3);
      expect(text).not.toContain(m.public_api_key);
      expect(text).not.toContain(m.private_secret_key);
      expect(text).not.toContain('4111111111111111');
      expect(text).toContain('"path":"/v1/payments"');
    } finally {
      await stop();
    }
  });
});

describe('retention', () => {
  it('drops idempotency records after 24 hours and events after 30 days of sandbox time', async () => {
    const m = await newMerchant(sb.url);
    const c = clientsFor(sb.url, m);
    await pay(c, m);
    const before = await c.sandbox.listEvents({ query: {} });
    expect(before.status === 200 && before.body.length).toBeGreaterThan(0);
    await c.sandbox.advanceClock({ body: { seconds: 30 * 86400 } });
    expect(await c.sandbox.listEvents({ query: {} })).toMatchObject({ status: 200, body: [] });
    const rows = await sb.sandbox.store.withTransaction(m.id, (tx) => tx.list('idempotency'));
    expect(rows).toEqual([]);
  });
});

describe('createMerchant with one seed in two processes on one store', () => {
  it('gives each its own tenant: the second takes the next ids of the seed and never overwrites the first', async () => {
    // Two sandboxes started with the same seed on one database: each has its own id stream.
    const store = new MemoryStore();
    const clock = new BaseClock(SEEDED_EPOCH_MS);
    const [a, b] = await Promise.all([
      createMerchant(store, clock, new IdFactory('shared-seed'), { name: 'first' }),
      createMerchant(store, clock, new IdFactory('shared-seed'), { name: 'second' }),
    ]);
    expect(a.id).not.toBe(b.id);
    expect(a.public_api_key).not.toBe(b.public_api_key);
    expect(await store.getMerchant(a.id)).toMatchObject({ name: 'first', public_api_key: a.public_api_key });
    expect(await store.getMerchant(b.id)).toMatchObject({ name: 'second', public_api_key: b.public_api_key });
  });
});
