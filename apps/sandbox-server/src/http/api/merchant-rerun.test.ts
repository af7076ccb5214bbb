import { describe, expect, it } from 'vitest';
import { PUBLIC_KEY_HEADER, SANDBOX_FAULT_HEADER, SECRET_KEY_HEADER } from '@switchyard/contract';
import { clientsFor, newMerchant } from '../../test-support/harness.js';
import { sandboxOn, storesUnderTest } from '../../test-support/stores.js';

const DAY_SECONDS = 86_400;
/**
 * How long the request waits before its first transaction: the clock advance must commit inside
 * it. An advance of a new merchant takes milliseconds, but 2 s was too short on a
 * machine 20 times slower than usual, busy with every package's tests; the test waits it out.
 */
const WAIT_MS = 8_000;

// One process: the request authenticated with the merchant's record, the clock moved while it
// waited in its header's latency, and its first transaction found the record changed
// (request-store.ts). It runs again on the record read again (merchant-rerun.ts), its body read
// once and its latency applied once, and nothing of its first run was written.
describe.each(storesUnderTest('merchant-rerun.test.ts'))('on the $name store, a request whose merchant changed before its first transaction', (store) => {
  const sb = sandboxOn(store);

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
