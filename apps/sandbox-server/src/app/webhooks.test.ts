import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { parseWebhookEvent, verifyWebhookSignature } from '@switchyard/client';
import type { SandboxMerchant, WebhookDelivery } from '@switchyard/contract';
import { clientsFor, idemKey, keysOf, newMerchant, pay, raw, startSandbox, type Clients, type RunningSandbox } from '../test-support/harness.js';
import { closedPortUrl } from '../test-support/clock-load.js';
import { eventually, startReceiver } from '../test-support/receiver.js';

let sb: RunningSandbox;
beforeAll(async () => {
  // Seeded, so the sandbox clock is frozen: sandbox time moves only when a test advances it. The
  // retry schedule is checked to the second ("not yet one second before it is due"), and on a clock
  // that follows the machine's, a slow machine spends that second between the first attempt and the
  // check.
  sb = await startSandbox({ seed: 'webhooks' });
});
afterAll(() => sb.stop());

const SECRET = 'whsec-test-0001';

async function merchantWithWebhook(url: string, triggers: Record<string, string[]> = { payment_triggers: ['PURCHASE', 'REFUND'] }) {
  const merchant: SandboxMerchant = await newMerchant(sb.url);
  const clients: Clients = clientsFor(sb.url, merchant);
  const accountId = merchant.account_ids[0] as string;
  const created = await clients.webhooks.create({ body: { account_id: accountId, name: 'listener', url, hmac_client_secret: SECRET, ...triggers } });
  if (created.status !== 201) throw new Error(`webhook: ${JSON.stringify(created.body)}`);
  return { merchant, clients, accountId, webhook: created.body };
}

async function deliveries(clients: Clients, query: Record<string, string> = {}): Promise<WebhookDelivery[]> {
  const res = await clients.sandbox.listWebhookDeliveries({ query });
  if (res.status !== 200) throw new Error('deliveries');
  return res.body;
}

describe('webhook management', () => {
  it('creates (201) with secrets masked, lists, updates, deletes', async () => {
    const { clients, accountId, webhook } = await merchantWithWebhook('http://127.0.0.1:9/hooks');
    expect(webhook).toMatchObject({ state: 'ACTIVE', hmac_client_secret: '***', api_key: null, payment_triggers: ['PURCHASE', 'REFUND'] });
    expect(await clients.webhooks.list({ query: { account_id: accountId } })).toMatchObject({ status: 200, body: [{ id: webhook.id }] });
    const updated = await clients.webhooks.update({ params: { webhook_id: webhook.id }, body: { account_id: accountId, state: 'INACTIVE', api_key: 'k-1' } });
    expect(updated).toMatchObject({ status: 200, body: { state: 'INACTIVE', api_key: '***', name: 'listener' } });
    expect(await clients.webhooks.list({ query: { account_id: accountId, state: 'ACTIVE' } })).toMatchObject({ status: 200, body: [] });
    expect(await clients.webhooks.delete({ params: { webhook_id: webhook.id }, query: { account_id: accountId } })).toMatchObject({ status: 200, body: { id: webhook.id } });
    expect(await clients.webhooks.get({ params: { webhook_id: webhook.id }, query: { account_id: accountId } })).toMatchObject({ status: 404, body: { code: 'WEBHOOK_NOT_FOUND' } });
  });

  it('refuses a duplicate name (409) and a non-http URL (400)', async () => {
    const { clients, accountId } = await merchantWithWebhook('http://127.0.0.1:9/hooks');
    expect(await clients.webhooks.create({ body: { account_id: accountId, name: 'listener', url: 'http://127.0.0.1:9/other' } })).toMatchObject({ status: 409, body: { code: 'WEBHOOK_ALREADY_EXISTS' } });
    expect(await clients.webhooks.create({ body: { account_id: accountId, name: 'ftp', url: 'ftp://merchant.example.com/x' } })).toMatchObject({ status: 400, body: { code: 'WEBHOOK_INVALID_REQUEST' } });
  });
});

// Upstream answers these with its own codes, all 400 (Manage Webhooks,
// InvalidCreateRequest, InvalidUpdateRequest and InvalidAccountRequest examples).
describe('webhook management errors', () => {
  it('answers an account id the keys do not own 400 INVALID_ACCOUNT_ID on every operation', async () => {
    const { clients, webhook } = await merchantWithWebhook('http://127.0.0.1:9/hooks');
    const foreign = (await newMerchant(sb.url)).account_ids[0] as string;
    const invalidAccount = { status: 400, body: { code: 'INVALID_ACCOUNT_ID' } };
    expect(await clients.webhooks.create({ body: { account_id: foreign, name: 'other', url: 'http://127.0.0.1:9/other' } })).toMatchObject(invalidAccount);
    expect(await clients.webhooks.list({ query: { account_id: foreign } })).toMatchObject(invalidAccount);
    expect(await clients.webhooks.get({ params: { webhook_id: webhook.id }, query: { account_id: foreign } })).toMatchObject(invalidAccount);
    expect(await clients.webhooks.update({ params: { webhook_id: webhook.id }, body: { account_id: foreign, name: 'x' } })).toMatchObject(invalidAccount);
    expect(await clients.webhooks.delete({ params: { webhook_id: webhook.id }, query: { account_id: foreign } })).toMatchObject(invalidAccount);
  });

  it('answers renewal_days without CLOSE_TO_RENEWAL 400 WEBHOOK_INVALID_RENEWAL_DAYS, on create and on an update that drops the trigger', async () => {
    const { clients, accountId } = await merchantWithWebhook('http://127.0.0.1:9/hooks');
    const invalidDays = { status: 400, body: { code: 'WEBHOOK_INVALID_RENEWAL_DAYS' } };
    expect(await clients.webhooks.create({ body: { account_id: accountId, name: 'renewals', url: 'http://127.0.0.1:9/r', subscription_triggers: ['CREATE'], renewal_days: 3 } })).toMatchObject(invalidDays);
    const renewals = await clients.webhooks.create({ body: { account_id: accountId, name: 'renewals', url: 'http://127.0.0.1:9/r', subscription_triggers: ['CLOSE_TO_RENEWAL'], renewal_days: 3 } });
    expect(renewals).toMatchObject({ status: 201, body: { renewal_days: 3 } });
    if (renewals.status !== 201) return;
    expect(await clients.webhooks.update({ params: { webhook_id: renewals.body.id }, body: { account_id: accountId, subscription_triggers: ['CREATE'] } })).toMatchObject(invalidDays);
  });
  it('answers an unknown trigger 400 WEBHOOK_INVALID_TRIGGER on create and update, naming the field', async () => {
    const { merchant, accountId, webhook } = await merchantWithWebhook('http://127.0.0.1:9/hooks');
    const send = (method: string, path: string, body: object) =>
      raw(sb.url, path, { method, headers: { ...keysOf(merchant), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const create = await send('POST', '/v1/webhooks', { account_id: accountId, name: 'settle', url: 'http://127.0.0.1:9/s', payment_triggers: ['PURCHASE', 'SETTLE'] });
    expect(create).toMatchObject({ status: 400, body: { code: 'WEBHOOK_INVALID_TRIGGER', messages: [expect.stringContaining('payment_triggers[1]')] } });
    const update = await send('PATCH', `/v1/webhooks/${webhook.id}`, { account_id: accountId, enrollment_triggers: ['REENROLL'] });
    expect(update).toMatchObject({ status: 400, body: { code: 'WEBHOOK_INVALID_TRIGGER', messages: [expect.stringContaining('enrollment_triggers[0]')] } });
    // A rule of the webhook's own fields broken first keeps the family's validation code.
    const noName = await send('POST', '/v1/webhooks', { account_id: accountId, url: 'http://127.0.0.1:9/s', payment_triggers: ['SETTLE'] });
    expect(noName).toMatchObject({ status: 400, body: { code: 'WEBHOOK_INVALID_REQUEST' } });
  });

  it('answers an invalid request WEBHOOK_INVALID_REQUEST, no keys 401 NOT_AUTHENTICATED and wrong keys 401 INVALID_CREDENTIALS', async () => {
    const { merchant, accountId } = await merchantWithWebhook('http://127.0.0.1:9/hooks');
    const list = (query: string, headers: Record<string, string>) => raw(sb.url, `/v1/webhooks${query}`, { method: 'GET', headers });
    expect(await list('', keysOf(merchant))).toMatchObject({ status: 400, body: { code: 'WEBHOOK_INVALID_REQUEST', messages: [expect.stringContaining('account_id')] } });
    expect(await list(`?account_id=${accountId}&state=PAUSED`, keysOf(merchant))).toMatchObject({ status: 400, body: { code: 'WEBHOOK_INVALID_REQUEST', messages: [expect.stringContaining('state')] } });
    expect(await list(`?account_id=${accountId}`, {})).toMatchObject({ status: 401, body: { code: 'NOT_AUTHENTICATED' } });
    expect(await list(`?account_id=${accountId}`, { ...keysOf(merchant), 'private-secret-key': 'wrong' })).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
  });
});

describe('webhook delivery', () => {
  it('delivers a signed payment.refund that verifies and parses to the typed event', async () => {
    const receiver = await startReceiver();
    try {
      const { merchant, clients } = await merchantWithWebhook(receiver.url);
      const p = await pay(clients, merchant);
      await clients.payments.refund({ params: { id: p.id, transaction_id: p.transactions?.id as string }, body: fixtures.refund(), headers: { 'x-idempotency-key': idemKey() } });
      const refund = await eventually(async () => receiver.received.find((r) => r.body.includes('"payment.refund"')));
      const signature = refund.headers['x-hmac-signature'] as string;
      expect(await verifyWebhookSignature(refund.body, signature, SECRET)).toBe(true);
      const event = await parseWebhookEvent(refund.body, signature, SECRET);
      expect(event).toMatchObject({ type: 'payment', type_event: 'payment.refund', retry: 0, version: 2, account_id: merchant.account_ids[0] });
      if (event.type !== 'payment') throw new Error('narrowing');
      expect(event.data.payment).toMatchObject({ id: p.id, status: 'REFUNDED', transactions: { type: 'REFUND' } });
      expect(event.data.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
      const recorded = await deliveries(clients, { event_type: 'payment.refund' });
      expect(recorded).toMatchObject([{ state: 'delivered', attempts: [{ retry: 0, status_code: 200, request_body: refund.body, signature }] }]);
      expect(receiver.received.some((r) => r.body.includes('"payment.purchase"'))).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  // docs/fidelity.md, "Absent values": a subscription's payload leaves out the customer_payer and
  // trial_period not sent, and a completed one's next_at is "" (§2.10 marks none nullable).
  it('delivers subscription events without null objects or next_at, which parse to the typed event', async () => {
    const receiver = await startReceiver();
    try {
      const { clients, accountId } = await merchantWithWebhook(receiver.url, { subscription_triggers: ['CREATE', 'COMPLETE'] });
      const customer = await clients.customers.create({ body: { merchant_customer_id: 'hooks-sub' } });
      if (customer.status !== 201) throw new Error('customer');
      const method = await clients.paymentMethods.enrollDirect({ params: { customer_id: customer.body.id }, body: { ...fixtures.enrollDirect(), account_id: accountId }, headers: { 'x-idempotency-key': idemKey() } });
      if (method.status !== 200) throw new Error('enroll');
      // One cycle, charged at creation: the subscription is created and completed at once.
      const created = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(method.body.vaulted_token), account_id: accountId, billing_cycles: { total: 1 } } });
      expect(created).toMatchObject({ status: 200, body: { status: 'COMPLETED' } });
      if (created.status !== 200) return;
      // Each payload is the subscription when its event was recorded: created before its first cycle, then completed.
      const expected = {
        'subscription.create': { status: 'ACTIVE', billing_cycles: { total: 1, current: 0, next_at: created.body.created_at } },
        'subscription.complete': { status: 'COMPLETED', billing_cycles: { total: 1, current: 1, next_at: '' } },
      };
      for (const [name, subscription] of Object.entries(expected)) {
        const delivered = await eventually(async () => receiver.received.find((r) => r.body.includes(`"${name}"`)));
        const event = await parseWebhookEvent(delivered.body, delivered.headers['x-hmac-signature'] as string, SECRET);
        if (event.type !== 'subscription') throw new Error('narrowing');
        expect(event.data.subscription).toMatchObject(subscription);
        expect(event.data.subscription).not.toHaveProperty('customer_payer');
        expect(event.data.subscription).not.toHaveProperty('trial_period');
      }
    } finally {
      await receiver.close();
    }
  });

  it('retries a failing receiver on the upstream schedule of sandbox time, then stops after 7 attempts', async () => {
    const receiver = await startReceiver(() => 500);
    try {
      const { merchant, clients } = await merchantWithWebhook(receiver.url, { payment_triggers: ['PURCHASE'] });
      await pay(clients, merchant);
      const first = await eventually(async () => (await deliveries(clients)).find((d) => d.attempts.length === 1));
      expect(first).toMatchObject({ state: 'pending', attempts: [{ retry: 0, status_code: 500 }] });
      const start = Date.parse(first.attempts[0]?.at as string);
      expect(Date.parse(first.next_attempt_at as string) - start).toBe(5 * 60_000);

      await clients.sandbox.advanceClock({ body: { seconds: 5 * 60 - 1 } });
      expect((await deliveries(clients))[0]?.attempts).toHaveLength(1);
      const steps = [1, 50 * 60, 6 * 3600, 24 * 3600, 48 * 3600, 96 * 3600];
      for (const seconds of steps) await clients.sandbox.advanceClock({ body: { seconds } });
      const [done] = await deliveries(clients);
      expect(done?.state).toBe('failed');
      expect(done?.attempts.map((a) => a.retry)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      const gaps = done?.attempts.slice(1).map((a, i) => Math.round((Date.parse(a.at) - Date.parse(done.attempts[i]?.at as string)) / 1000));
      expect(gaps).toEqual([300, 50 * 60, 6 * 3600, 24 * 3600, 48 * 3600, 96 * 3600]);
      expect(JSON.parse(done?.attempts[6]?.request_body as string)).toMatchObject({ retry: 6 });
      const keys = done?.attempts.map((a) => (JSON.parse(a.request_body) as { data: { idempotency_key: string } }).data.idempotency_key);
      expect(new Set(keys).size).toBe(1);
      await clients.sandbox.advanceClock({ body: { seconds: 200 * 3600 } });
      expect(receiver.received).toHaveLength(7);
    } finally {
      await receiver.close();
    }
  });

  it('sends an unanswering receiver one attempt per dispatch run, and records the rest of the run\'s due attempts as not sent', async () => {
    const dead = await closedPortUrl();
    const { merchant, clients } = await merchantWithWebhook(dead, { payment_triggers: ['PURCHASE'] });
    await pay(clients, merchant);
    const first = await eventually(async () => (await deliveries(clients)).find((d) => d.attempts.length === 1));
    expect(first.attempts[0]).toMatchObject({ retry: 0, status_code: null, error: expect.stringMatching(/ECONNREFUSED/) });
    // The advance is one run: the retry at +5 min is sent and refused, so the one at +55 min is not sent.
    await clients.sandbox.advanceClock({ body: { seconds: 3600 } });
    const [after] = await deliveries(clients);
    expect(after?.state).toBe('pending');
    expect(after?.attempts.map((a) => [a.retry, a.request_body === '' ? 'not sent' : 'sent'])).toEqual([
      [0, 'sent'],
      [1, 'sent'],
      [2, 'not sent'],
    ]);
    const start = Date.parse(first.attempts[0]?.at as string);
    expect(after?.attempts.map((a) => (Date.parse(a.at) - start) / 60_000)).toEqual([0, 5, 55]);
    expect(after?.attempts[2]).toMatchObject({ status_code: null, duration_ms: 0, signature: '', error: expect.stringMatching(/^not sent: the receiver did not answer an earlier attempt of this dispatch run \(connect ECONNREFUSED/) });
    expect(Date.parse(after?.next_attempt_at as string) - start).toBe((55 + 6 * 60) * 60_000);
  });

  it('redelivers on demand', async () => {
    let status = 500;
    const receiver = await startReceiver(() => status);
    try {
      const { merchant, clients } = await merchantWithWebhook(receiver.url, { payment_triggers: ['PURCHASE'] });
      await pay(clients, merchant);
      const failing = await eventually(async () => (await deliveries(clients)).find((d) => d.attempts.length === 1));
      status = 200;
      const redelivered = await clients.sandbox.redeliverWebhook({ params: { delivery_id: failing.id } });
      expect(redelivered).toMatchObject({ status: 200, body: { state: 'delivered', attempts: [{ status_code: 500 }, { status_code: 200, retry: 1 }] } });
      expect(await clients.sandbox.redeliverWebhook({ params: { delivery_id: 'nope' } })).toMatchObject({ status: 404 });
    } finally {
      await receiver.close();
    }
  });

  it("never sends one merchant's events to another's URL, and sends only the chosen triggers", async () => {
    const mine = await startReceiver();
    const theirs = await startReceiver();
    try {
      const a = await merchantWithWebhook(mine.url, { payment_triggers: ['REFUND'] });
      const b = await merchantWithWebhook(theirs.url, { payment_triggers: ['PURCHASE', 'REFUND'] });
      const p = await pay(a.clients, a.merchant);
      await a.clients.payments.refund({ params: { id: p.id, transaction_id: p.transactions?.id as string }, body: fixtures.refund(), headers: { 'x-idempotency-key': idemKey() } });
      // The delivery log is what the dispatcher sends from: what is not queued is never sent.
      const sent = await eventually(async () => {
        const queued = await deliveries(a.clients);
        return queued.length > 0 && queued.every((d) => d.state === 'delivered') ? queued : undefined;
      });
      expect(sent).toEqual([expect.objectContaining({ url: mine.url, attempts: [expect.objectContaining({ status_code: 200 })] })]);
      expect(JSON.parse(sent[0]?.attempts[0]?.request_body as string)).toMatchObject({ type_event: 'payment.refund' });
      expect(await deliveries(b.clients)).toEqual([]);
      expect(theirs.received).toHaveLength(0);
      expect(mine.received.map((r) => (JSON.parse(r.body) as { type_event: string }).type_event)).toEqual(['payment.refund']);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('never fails the request that caused the event when the receiver is down', async () => {
    const receiver = await startReceiver();
    await receiver.close();
    const { merchant, clients } = await merchantWithWebhook(receiver.url, { payment_triggers: ['PURCHASE'] });
    const p = await pay(clients, merchant);
    expect(p.status).toBe('SUCCEEDED');
    const [d] = await eventually(async () => {
      const list = await deliveries(clients);
      return list[0]?.attempts.length ? list : undefined;
    });
    expect(d?.attempts[0]).toMatchObject({ status_code: null, error: expect.any(String) });
  });

  it('delivers split transfer and banking events in their envelopes', async () => {
    const receiver = await startReceiver();
    try {
      const { clients, accountId } = await merchantWithWebhook(receiver.url, { payment_triggers: [] });
      const r = await clients.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: accountId } });
      if (r.status !== 201) throw new Error('setup');
      await clients.sandbox.fundRecipientBalance({ params: { recipient_id: r.body.id }, body: { amount: { currency: 'BRL', value: 100 } } });
      const t = await clients.marketplace.createTransfer({ body: { ...fixtures.createTransfer(r.body.id), account_id: accountId }, headers: { 'x-idempotency-key': idemKey() } });
      if (t.status !== 201) throw new Error('setup');
      await clients.banking.createEntity({ body: { ...fixtures.createIndividualEntity(), account_id: accountId }, headers: { 'x-idempotency-key': crypto.randomUUID() } });
      const bodies = await eventually(async () => (receiver.received.length >= 2 ? receiver.received.map((x) => JSON.parse(x.body) as Record<string, unknown>) : undefined));
      expect(bodies).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: 'split_transfer', type_event: 'succeeded', transfer_id: t.body.id, version: 1 }),
          expect.objectContaining({ type: 'banking.entity', type_event: 'banking.entity.created', version: 2 }),
        ]),
      );
      expect(JSON.stringify(bodies)).not.toContain('123-45-6789');
    } finally {
      await receiver.close();
    }
  });
});
