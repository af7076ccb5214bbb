import { afterAll, beforeAll, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import type { SandboxMerchant, Snapshot } from '@switchyard/contract';
import { clientsFor, idemKey, newMerchant, pay, subscribedCustomer, type Clients } from '../test-support/harness.js';
import { eventually, startReceiver } from '../test-support/receiver.js';
import { sandboxPerStore } from '../test-support/stores.js';
import { MIGRATIONS } from '../store/migrations/index.js';
import { SNAPSHOT_VERSION } from './snapshots.js';

const key = () => ({ 'x-idempotency-key': idemKey() });
const DAY = 86400;

/**
 * A world with a configured webhook and its delivered events, a customer with an enrolled card,
 * a subscription, a refunded payment, and a clock moved a day: the GETs that read it back.
 */
async function buildWorld(clients: Clients, merchant: SandboxMerchant, webhookUrl: string) {
  const accountId = merchant.account_ids[0] as string;
  const webhook = await clients.webhooks.create({ body: { account_id: accountId, name: 'listener', url: webhookUrl, hmac_client_secret: 'whsec-snapshot', payment_triggers: ['PURCHASE', 'REFUND'] } });
  if (webhook.status !== 201) throw new Error(`webhook: ${JSON.stringify(webhook.body)}`);
  const { customerId, subscriptionId } = await subscribedCustomer(clients, accountId, 'snapshot-customer');
  const payment = await pay(clients, merchant);
  const refund = await clients.payments.refund({ params: { id: payment.id, transaction_id: payment.transactions?.id as string }, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 10 } }, headers: key() });
  if (refund.status !== 200) throw new Error(`refund: ${JSON.stringify(refund.body)}`);
  const link = await clients.checkout.createPaymentLink({ body: { ...fixtures.createPaymentLink(), account_id: accountId, availability: { finish_at: '2099-01-01T00:00:00Z' } } });
  if (link.status !== 200) throw new Error(`link: ${JSON.stringify(link.body)}`);
  if ((await clients.sandbox.advanceClock({ body: { seconds: DAY } })).status !== 200) throw new Error('clock');
  const ids = { accountId, webhookId: webhook.body.id, customerId, subscriptionId, paymentId: payment.id };
  return { ids, transactionId: payment.transactions?.id as string, linkPath: new URL(link.body.checkout_url).pathname, reads: (c: Clients) => reads(c, ids) };
}

/** What a test would read from the world, with the values that are not state (request ids, real time) left out. */
async function reads(clients: Clients, ids: { accountId: string; webhookId: string; customerId: string; subscriptionId: string; paymentId: string }) {
  const clock = await clients.sandbox.getClock();
  return {
    payment: (await clients.payments.get({ params: { payment_id: ids.paymentId } })).body,
    customer: (await clients.customers.get({ params: { customer_id: ids.customerId } })).body,
    subscription: (await clients.subscriptions.get({ params: { id: ids.subscriptionId } })).body,
    webhooks: (await clients.webhooks.list({ query: { account_id: ids.accountId } })).body,
    webhook: (await clients.webhooks.get({ params: { webhook_id: ids.webhookId }, query: { account_id: ids.accountId } })).body,
    events: (await clients.sandbox.listEvents({ query: {} })).body,
    deliveries: (await clients.sandbox.listWebhookDeliveries({ query: {} })).body,
    clockOffset: clock.status === 200 ? clock.body.offset_seconds : undefined,
  };
}

async function exported(clients: Clients): Promise<Snapshot> {
  const res = await clients.sandbox.exportSnapshot();
  if (res.status !== 200) throw new Error(`export: ${JSON.stringify(res.body)}`);
  return res.body;
}

// An index changes no record: a sandbox that lacks it reads the snapshot's records as they are.
it('versions snapshots by the migrations that may change record data, not by index-only ones', () => {
  const indexOnly = MIGRATIONS.filter((m) => m.recordsUnchanged).map((m) => m.version);
  expect(indexOnly).toContain(4);
  expect(SNAPSHOT_VERSION).toBe(3);
});

// Registered before the sandboxes, so the receiver closes only after they stopped sending to it.
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

sandboxPerStore('snapshots.test.ts', 'snapshots on the $name store', (sb) => {

  it('exports a world and imports it into a new merchant, which answers the same GETs', async () => {
    const source = await newMerchant(sb.url);
    const sourceClients = clientsFor(sb.url, source);
    const world = await buildWorld(sourceClients, source, receiver.url);
    // Every delivery settled before the export, so the copy has nothing left to send.
    await eventually(async () => {
      const res = await sourceClients.sandbox.listWebhookDeliveries({ query: {} });
      return res.status === 200 && res.body.length >= 2 && res.body.every((d) => d.state === 'delivered') ? true : undefined;
    });
    const snapshot = await exported(sourceClients);
    expect(snapshot).toMatchObject({ format: 'switchyard.snapshot', version: SNAPSHOT_VERSION, merchant: { account_ids: source.account_ids, clock_offset_seconds: DAY } });
    const text = JSON.stringify(snapshot);
    expect(text).not.toContain(source.private_secret_key);
    expect(text).not.toContain(source.public_api_key);

    const copy = await newMerchant(sb.url);
    const copyClients = clientsFor(sb.url, copy);
    const imported = await copyClients.sandbox.importSnapshot({ body: snapshot });
    expect(imported).toMatchObject({ status: 200, body: { imported: snapshot.records.length, account_ids: source.account_ids, clock_offset_seconds: DAY } });
    const before = await world.reads(sourceClients);
    expect(before.deliveries).toEqual(expect.arrayContaining([expect.objectContaining({ state: 'delivered' })]));
    expect(await world.reads(copyClients)).toEqual(before);
    // The copy is a world of its own: it goes on from there, the source is unchanged.
    expect((await copyClients.payments.refund({ params: { id: world.ids.paymentId, transaction_id: world.transactionId }, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 5 } }, headers: key() })).status).toBe(200);
    expect((await sourceClients.payments.get({ params: { payment_id: world.ids.paymentId } })).body).toEqual(before.payment);
    // A merchant that holds data refuses an import.
    expect(await copyClients.sandbox.importSnapshot({ body: snapshot })).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });

    // The payment link's public code stays with the source: the copy did not take it over.
    expect((await fetch(`${sb.url}${world.linkPath}`)).status).toBe(200);
    expect((await sourceClients.sandbox.reset()).status).toBe(200);
    expect((await fetch(`${sb.url}${world.linkPath}`)).status).toBe(404);
    // Once no merchant holds it, an import keeps it and the hosted page opens again.
    const third = clientsFor(sb.url, await newMerchant(sb.url));
    expect((await third.sandbox.importSnapshot({ body: snapshot })).status).toBe(200);
    expect((await fetch(`${sb.url}${world.linkPath}`)).status).toBe(200);
  });

  // The store runs each import alone (test-support/store-contract.ts shows the order without timing it): the
  // second finds the first's records, and the copy holds one snapshot's records, not two mixed.
  it('imports one of two snapshots sent at once to one merchant, and refuses the other as holding data', async () => {
    const source = clientsFor(sb.url, await newMerchant(sb.url));
    for (let i = 0; i < 5; i += 1) expect((await source.customers.create({ body: { merchant_customer_id: `concurrent-${i}` } })).status).toBe(201);
    const snapshot = await exported(source);
    const copy = clientsFor(sb.url, await newMerchant(sb.url));
    const answers = await Promise.all([copy.sandbox.importSnapshot({ body: snapshot }), copy.sandbox.importSnapshot({ body: snapshot })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)?.body).toMatchObject({ code: 'INVALID_STATE' });
    expect((await exported(copy)).records).toEqual(snapshot.records);
  });

  it('refuses a snapshot from a newer schema, naming both versions', async () => {
    const merchant = await newMerchant(sb.url);
    const clients = clientsFor(sb.url, merchant);
    const snapshot = await exported(clients);
    const res = await clients.sandbox.importSnapshot({ body: { ...snapshot, version: SNAPSHOT_VERSION + 1 } });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS' } });
    expect(JSON.stringify(res.body)).toContain(`snapshot version ${SNAPSHOT_VERSION + 1} is newer than this sandbox's schema version ${SNAPSHOT_VERSION}`);
    const unknownKind = await clients.sandbox.importSnapshot({ body: { ...snapshot, records: [{ kind: 'nonsense', id: 'x', unique_key: null, data: {} }] } });
    expect(unknownKind).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS' } });
    // A rule no API call could create (a latency past the contract's cap) is not imported either.
    const rule = await clients.sandbox.createFaultRule({ body: { match: { operation_id: 'getCustomer' }, effect: { type: 'latency', ms: 10 } } });
    expect(rule.status).toBe(201);
    const withRule = await exported(clients);
    const bent = withRule.records.map((r) => (r.kind === 'fault_rule' ? { ...r, data: { ...(r.data as object), effect: { type: 'latency', ms: 10_000_000 } } } : r));
    const fresh = clientsFor(sb.url, await newMerchant(sb.url));
    const refused = await fresh.sandbox.importSnapshot({ body: { ...withRule, records: bent } });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: [expect.stringMatching(/^records\[0\] fault_rule "[^"]+": data\.effect\.ms must be at most/)] } });
    expect((await fresh.sandbox.importSnapshot({ body: withRule })).status).toBe(200);
    expect((await fresh.sandbox.listFaultRules()).body).toMatchObject([{ id: (rule.body as { id: string }).id }]);
  });
});
