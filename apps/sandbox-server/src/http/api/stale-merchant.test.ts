import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { PUBLIC_KEY_HEADER, SANDBOX_FAULT_HEADER, SECRET_KEY_HEADER } from '@switchyard/contract';
import { MemoryStore } from '../../store/memory.js';
import { clientsFor, newMerchant } from '../../test-support/harness.js';
import { merchantRecord } from '../../test-support/merchant-record.js';
import { sandboxPerStore } from '../../test-support/stores.js';
import { RequestStore } from './stale-merchant.js';

/** A response's locals as authentication leaves them: the merchant, not yet known to be current. */
function authenticated(merchant = merchantRecord('m1')): Response {
  return { locals: { merchant } } as unknown as Response;
}

describe('RequestStore', () => {
  it('after the request changes its own merchant, the request holds the changed record and checks nothing more', async () => {
    const store = new MemoryStore();
    await store.putMerchantIfAbsent(merchantRecord('m1'));
    const res = authenticated();
    const updated = await new RequestStore(store, res).updateMerchant('m1', (m) => ({ ...m, clock_offset_seconds: 3600 }));
    expect(updated?.clock_offset_seconds).toBe(3600);
    expect(res.locals.merchant).toEqual(updated);
    expect(res.locals.merchantCurrent).toBe(true);
  });

  it("a change of another merchant leaves the request's record and its checks as they were", async () => {
    const store = new MemoryStore();
    await store.putMerchantIfAbsent(merchantRecord('m1'));
    await store.putMerchantIfAbsent(merchantRecord('m2'));
    const res = authenticated();
    await new RequestStore(store, res).updateMerchant('m2', (m) => ({ ...m, clock_offset_seconds: 60 }));
    expect(res.locals.merchant).toEqual(merchantRecord('m1'));
    expect(res.locals.merchantCurrent).toBeUndefined();
  });
});

const DAY_SECONDS = 86_400;
/**
 * How long the request waits before its first transaction: the clock advance must commit inside
 * it. An advance of a new merchant takes milliseconds, but 2 s was too short on a
 * machine 20 times slower than usual, busy with every package's tests; the test waits it out.
 */
const WAIT_MS = 8_000;

// One process: the request authenticated with the merchant's record, the clock moved while it
// waited in its header's latency, and its first transaction found the record changed
// (RequestStore). It runs again on the record read again (rerunWhenMerchantChanged), its body
// read once and its latency applied once, and nothing of its first run was written.
sandboxPerStore('stale-merchant.test.ts', 'on the $name store, a request whose merchant changed before its first transaction', (sb) => {

  it('runs again on the new record: one customer, stamped by the new clock, journaled once', async () => {
    const merchant = await newMerchant(sb.url);
    const clients = clientsFor(sb.url, merchant);
    const body = { merchant_customer_id: `rerun-${crypto.randomUUID()}` };
    const waiting = fetch(`${sb.url}/v1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [PUBLIC_KEY_HEADER]: merchant.public_api_key, [SECRET_KEY_HEADER]: merchant.private_secret_key, [SANDBOX_FAULT_HEADER]: `latency=${WAIT_MS}ms` },
      body: JSON.stringify(body),
    });
    expect(await clients.sandbox.advanceClock({ body: { seconds: 30 * DAY_SECONDS } })).toMatchObject({ status: 200 });
    const res = await waiting;
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; created_at: string };
    expect(Date.parse(created.created_at) - Date.now()).toBeGreaterThan(29 * DAY_SECONDS * 1000);

    expect(await clients.customers.get({ params: { customer_id: created.id } })).toMatchObject({ status: 200, body: { merchant_customer_id: body.merchant_customer_id } });
    expect(await clients.customers.create({ body })).toMatchObject({ status: 400, body: { code: 'CUSTOMER_ID_DUPLICATED' } });
    const journal = await clients.sandbox.listRequests({ query: {} });
    if (journal.status !== 200) throw new Error('journal');
    const posts = journal.body.filter((e) => e.method === 'POST' && e.path === '/v1/customers');
    expect(posts.map((e) => e.status)).toEqual(expect.arrayContaining([201, 400]));
    expect(posts).toHaveLength(2);
  });
});
