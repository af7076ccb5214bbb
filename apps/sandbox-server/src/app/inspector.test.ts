import { expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { clientsFor, idemKey, newMerchant, pay } from '../test-support/harness.js';
import { sandboxPerStore } from '../test-support/stores.js';

// On both stores: each answers the newest records and a subscription's payments through its own index.
sandboxPerStore('inspector.test.ts', 'GET /sandbox/inspector/overview on the $name store', (sb) => {

  async function merchant() {
    const m = await newMerchant(sb.url);
    return { merchant: m, clients: clientsFor(sb.url, m), accountId: m.account_ids[0] as string };
  }

  it.concurrent('answers the newest `limit` payments, newest first, with the total and every transaction (refunds included)', async () => {
    const { merchant: m, clients } = await merchant();
    const first = await pay(clients, m, { description: 'first' });
    await clients.payments.refund({ params: { id: first.id, transaction_id: first.transactions?.id as string }, body: fixtures.refund(), headers: { 'x-idempotency-key': idemKey() } });
    const second = await pay(clients, m, { description: 'second' });
    const third = await pay(clients, m, { description: 'third' });

    const two = await clients.sandbox.getInspectorOverview({ query: { limit: 2 } });
    expect(two.status).toBe(200);
    if (two.status !== 200) return;
    expect(two.body.limit).toBe(2);
    // Who is signed in, for the page to say: never the keys.
    expect(two.body.merchant).toEqual({ id: m.id, name: m.name, account_ids: m.account_ids });
    expect(JSON.stringify(two.body)).not.toContain(m.private_secret_key);
    expect(two.body.payments.total).toBe(3);
    expect(two.body.payments.items.map((p) => p.id)).toEqual([third.id, second.id]);

    const all = await clients.sandbox.getInspectorOverview({ query: {} });
    if (all.status !== 200) throw new Error(`overview: ${all.status}`);
    const refunded = all.body.payments.items.find((p) => p.id === first.id);
    expect(refunded?.transactions.map((t) => t.type)).toEqual(['PURCHASE', 'REFUND']);
  });

  it.concurrent("shows customers and subscriptions with their cycles' payments, and nothing of another merchant", async () => {
    const { clients, accountId } = await merchant();
    const customer = await clients.customers.create({ body: { merchant_customer_id: 'inspector-customer' } });
    if (customer.status !== 201) throw new Error('customer');
    const enroll = fixtures.enrollDirect();
    const method = await clients.paymentMethods.enrollDirect({
      params: { customer_id: customer.body.id },
      body: { ...enroll, account_id: accountId },
      headers: { 'x-idempotency-key': idemKey() },
    });
    if (method.status !== 200) throw new Error('enroll');
    const subscription = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(method.body.vaulted_token), account_id: accountId } });
    if (subscription.status !== 200) throw new Error(`subscription: ${subscription.status}`);

    const overview = await clients.sandbox.getInspectorOverview({ query: {} });
    if (overview.status !== 200) throw new Error(`overview: ${overview.status}`);
    expect(overview.body.customers.items.map((c) => c.id)).toEqual([customer.body.id]);
    const [shown] = overview.body.subscriptions.items;
    expect(shown?.subscription.id).toBe(subscription.body.id);
    // Shown as the API answers it: no customer_payer or trial_period when none was sent (docs/fidelity.md, "Absent values").
    expect(shown?.subscription).toEqual(subscription.body);
    expect(shown?.subscription).not.toHaveProperty('customer_payer');
    expect(shown?.subscription).not.toHaveProperty('trial_period');
    // The first cycle is charged at creation (docs/sandbox-payments.md, "Subscriptions"): its payment is the subscription's.
    expect(shown?.cycle_payments).toHaveLength(1);
    expect(overview.body.payments.items.map((p) => p.id)).toEqual([shown?.cycle_payments[0]?.payment_id]);

    // A month later the second cycle is billed: each subscription's cycle payments are bounded by `limit` too, newest first.
    if ((await clients.sandbox.advanceClock({ body: { seconds: 32 * 86400 } })).status !== 200) throw new Error('clock');
    const later = await clients.sandbox.getInspectorOverview({ query: { limit: 1 } });
    if (later.status !== 200) throw new Error(`overview: ${later.status}`);
    expect(later.body.payments.total).toBe(2);
    expect(later.body.subscriptions.items[0]?.cycle_payments.map((c) => c.merchant_order_id)).toEqual([`${subscription.body.id}-2`]);

    const other = await merchant();
    const theirs = await other.clients.sandbox.getInspectorOverview({ query: {} });
    if (theirs.status !== 200) throw new Error(`overview: ${theirs.status}`);
    for (const kind of ['customers', 'payments', 'subscriptions', 'transfers', 'banking_entities'] as const) {
      expect(theirs.body[kind]).toEqual({ total: 0, items: [] });
    }
  });

  it.concurrent('refuses a limit outside 1 to 100 and a caller with wrong keys, in the API error shape', async () => {
    const { clients } = await merchant();
    for (const limit of [0, 101]) {
      const res = await clients.sandbox.getInspectorOverview({ query: { limit } });
      expect(res).toMatchObject({ status: 400, body: { code: expect.any(String), messages: [expect.stringContaining('limit')] } });
    }
    const stranger = await fetch(`${sb.url}/sandbox/inspector/overview`, { headers: { 'public-api-key': 'nobody', 'private-secret-key': 'nothing' } });
    expect(stranger.status).toBe(401);
    expect(await stranger.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });
});
