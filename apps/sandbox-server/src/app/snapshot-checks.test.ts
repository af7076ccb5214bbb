import { describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import type { Snapshot, SnapshotRecord } from '@switchyard/contract';
import { clientsFor, newMerchant, subscribedCustomer, type Clients } from '../test-support/harness.js';
import { sandboxOn, storesUnderTest } from '../test-support/stores.js';
import { DEFAULT_LIMITS } from '../tenant-limits.js';

/** A low bound of charges per billing run, so a test sees it reached. */
const CHARGES = 12;

async function exported(clients: Clients): Promise<Snapshot> {
  const res = await clients.sandbox.exportSnapshot();
  if (res.status !== 200) throw new Error(`export: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A merchant with a subscription, a webhook and its delivery, and a payment link (public code); its snapshot. */
async function world(url: string) {
  const merchant = await newMerchant(url);
  const clients = clientsFor(url, merchant);
  const accountId = merchant.account_ids[0] as string;
  await clients.webhooks.create({ body: { account_id: accountId, name: 'closed', url: 'http://127.0.0.1:9/hooks', subscription_triggers: ['CREATE'] } });
  await subscribedCustomer(clients, accountId, 'checks');
  const link = await clients.checkout.createPaymentLink({ body: { ...fixtures.createPaymentLink(), account_id: accountId, availability: { finish_at: '2099-01-01T00:00:00Z' } } });
  if (link.status !== 200) throw new Error('link');
  return { merchant, clients, snapshot: await exported(clients) };
}

/** The snapshot with the first record of `kind` changed by `change`. */
function tampered(snapshot: Snapshot, kind: string, change: (data: Record<string, unknown>) => Record<string, unknown>): Snapshot {
  const i = snapshot.records.findIndex((r) => r.kind === kind);
  if (i < 0) throw new Error(`no ${kind}`);
  const records = [...snapshot.records];
  const record = records[i] as SnapshotRecord;
  records[i] = { ...record, data: change(structuredClone(record.data)) };
  return { ...snapshot, records };
}

describe.each(storesUnderTest('snapshot-checks.test.ts'))('snapshot imports checked like API writes, on the $name store', (store) => {
  const sb = sandboxOn(store, { limits: { ...DEFAULT_LIMITS, chargesPerRun: CHARGES } });

  it('refuses a subscription of frequency 0 with a past next_at (which billed without end), naming the field, and imports nothing', async () => {
    const { snapshot } = await world(sb.url);
    const bad = tampered(snapshot, 'subscription', (s) => ({ ...s, frequency: { type: 'DAY', value: 0 }, next_at: '2000-01-01T00:00:00.000Z' }));
    const target = clientsFor(sb.url, await newMerchant(sb.url));
    const res = await target.sandbox.importSnapshot({ body: bad });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: [expect.stringMatching(/data\.frequency\.value/)] } });
    expect((await exported(target)).records).toEqual([]);
  });

  it.each<[string, string, (d: Record<string, unknown>) => Record<string, unknown>, RegExp]>([
    ['a date that does not parse', 'subscription', (s) => ({ ...s, next_at: 'soon' }), /next_at/],
    ['more cycles paid than the total', 'subscription', (s) => ({ ...s, billing_total: 1, billing_current: 5 }), /billing_current/],
    ['an eighth attempt of a delivery', 'webhook_delivery', (d) => ({ ...d, attempts: Array.from({ length: 8 }, () => ({ at: '2026-01-01T00:00:00.000Z' })) }), /attempts/],
    ['a webhook to a non-http address', 'webhook', (w) => ({ ...w, url: 'file:///etc/passwd' }), /url/],
    ['a record whose data names another id', 'customer', (c) => ({ ...c, id: 'someone-else' }), /data\.id/],
    ['a record of an account not in the snapshot', 'payment_link', (l) => ({ ...l, account_id: '00000000-0000-4000-8000-000000000000' }), /account_id/],
  ])('refuses %s', async (_name, kind, change, field) => {
    const { snapshot } = await world(sb.url);
    const target = clientsFor(sb.url, await newMerchant(sb.url));
    const res = await target.sandbox.importSnapshot({ body: tampered(snapshot, kind, change) });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: [expect.stringMatching(field)] } });
  });

  it('refuses a record id or unique key twice in one snapshot', async () => {
    const { snapshot } = await world(sb.url);
    const target = clientsFor(sb.url, await newMerchant(sb.url));
    const link = snapshot.records.find((r) => r.kind === 'payment_link') as SnapshotRecord;
    const res = await target.sandbox.importSnapshot({ body: { ...snapshot, records: [...snapshot.records, { ...link, id: `${link.id}-copy` }] } });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: [expect.stringMatching(/unique_key is also records\[\d+\]'s/)] } });
  });

  it('charges a subscription that never moves forward (written past the checks) at most the bound per read, and answers', async () => {
    const { merchant, clients, snapshot } = await world(sb.url);
    const record = snapshot.records.find((r) => r.kind === 'subscription') as SnapshotRecord;
    await sb.sandbox.store.withTransaction(merchant.id, (tx) => tx.put('subscription', record.id, { ...record.data, frequency: { type: 'DAY', value: 0 }, billing_total: null, next_at: '2000-01-01T00:00:00.000Z' }));
    const payments = async () => (await exported(clients)).records.filter((r) => r.kind === 'payment').length;
    const before = await payments();
    expect((await clients.subscriptions.get({ params: { id: record.id } })).status).toBe(200);
    expect((await payments()) - before).toBe(CHARGES);
    expect((await clients.subscriptions.get({ params: { id: record.id } })).status).toBe(200);
    expect((await payments()) - before).toBe(2 * CHARGES);
  });

  it('gives a public code to one merchant only when two imports of one snapshot run at once', async () => {
    const { clients, snapshot } = await world(sb.url);
    // The source lets its codes go, so both imports may take them.
    expect((await clients.sandbox.reset()).status).toBe(200);
    const targets = [clientsFor(sb.url, await newMerchant(sb.url)), clientsFor(sb.url, await newMerchant(sb.url))];
    const results = await Promise.all(targets.map((t) => t.sandbox.importSnapshot({ body: snapshot })));
    for (const r of results) expect(r.status).toBe(200);
    const copies = await Promise.all(targets.map(exported));
    const handles = snapshot.records.filter((r) => ['payment_link', 'payer_page', 'checkout_session'].includes(r.kind) && r.unique_key !== null);
    expect(handles.length).toBeGreaterThan(0);
    for (const handle of handles) {
      const holders = copies.filter((copy) => copy.records.some((r) => r.kind === handle.kind && r.unique_key === handle.unique_key));
      expect(holders, `${handle.kind} ${handle.unique_key}`).toHaveLength(1);
    }
  });
});
