import { describe, expect, it } from 'vitest';
import { parseWebhookEvent } from '@switchyard/client';
import type { SandboxMerchant, WebhookDelivery } from '@switchyard/contract';
import { clientsFor, keysOf, newMerchant, pay, raw, startSandbox, type Clients } from '../test-support/harness.js';
import { eventually, startReceiver, type Received } from '../test-support/receiver.js';
import { freshSchema, testDatabaseUrl } from '../test-support/database.js';
import { sandboxPerStore } from '../test-support/stores.js';

const SECRET = 'whsec-chaos-0001';

/**
 * The bound of a test that waits for deliveries: a hang detector, above two of `eventually`'s 45 s
 * waits and the requests around them (the preset's 60 s is not). The tests without such a wait
 * keep the preset.
 */
const DELIVERY_WAITS = 120_000;

/** The payment id of a received `payment.*` webhook, after its signature is verified with the client's verifier. */
async function verifiedPaymentId(r: Received): Promise<string> {
  const event = await parseWebhookEvent(r.body, r.headers['x-hmac-signature'] as string, SECRET);
  if (event.type !== 'payment') throw new Error(`unexpected ${event.type}`);
  return event.data.payment.id;
}

sandboxPerStore('chaos.test.ts', 'webhook chaos on the $name store', (sb) => {

  async function merchantListening(url: string) {
    const merchant: SandboxMerchant = await newMerchant(sb.url);
    const clients: Clients = clientsFor(sb.url, merchant);
    const created = await clients.webhooks.create({ body: { account_id: merchant.account_ids[0] as string, name: 'chaos', url, hmac_client_secret: SECRET, payment_triggers: ['PURCHASE'] } });
    if (created.status !== 201) throw new Error(`webhook: ${JSON.stringify(created.body)}`);
    return { merchant, clients, webhookId: created.body.id };
  }

  async function deliveries(clients: Clients): Promise<WebhookDelivery[]> {
    const res = await clients.sandbox.listWebhookDeliveries({ query: {} });
    if (res.status !== 200) throw new Error('deliveries');
    return res.body;
  }

  async function addRule(clients: Clients, body: Parameters<Clients['sandbox']['createWebhookChaos']>[0]['body']) {
    const res = await clients.sandbox.createWebhookChaos({ body });
    if (res.status !== 201) throw new Error(`rule: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  it.concurrent('delivers a duplicate and a reordered delivery, each verifiable, while another merchant in parallel sees no chaos', async () => {
    const chaotic = await startReceiver();
    const calm = await startReceiver();
    try {
      const a = await merchantListening(chaotic.url);
      const b = await merchantListening(calm.url);
      const duplicate = await addRule(a.clients, { match: { webhook_id: a.webhookId, event_type: 'payment.purchase' }, effect: { type: 'duplicate' }, times: 1 });
      const reorder = await addRule(a.clients, { match: { url: chaotic.url }, effect: { type: 'reorder' }, times: 1 });
      const [calmPayments, chaoticPayments] = await Promise.all([
        (async () => [await pay(b.clients, b.merchant), await pay(b.clients, b.merchant), await pay(b.clients, b.merchant)])(),
        (async () => {
          const first = await pay(a.clients, a.merchant); // duplicated (the oldest rule that fires wins)
          const second = await pay(a.clients, a.merchant); // held by the reorder
          const third = await pay(a.clients, a.merchant); // the next one: sent, then the held one
          return [first, second, third];
        })(),
      ]);
      await eventually(async () => (chaotic.received.length === 4 && calm.received.length === 3 ? true : undefined), 15_000);

      const ids = await Promise.all(chaotic.received.map(verifiedPaymentId));
      const [first, second, third] = chaoticPayments.map((p) => p.id);
      expect(ids.filter((id) => id === first)).toHaveLength(2);
      expect(ids.indexOf(third as string)).toBeLessThan(ids.indexOf(second as string));
      const copies = chaotic.received.filter((_, i) => ids[i] === first);
      expect(copies[0]?.body).toBe(copies[1]?.body);

      const log = await eventually(async () => {
        const all = await deliveries(a.clients);
        return all.length === 4 && all.every((d) => d.state === 'delivered') ? all : undefined;
      });
      const byPayment = (id: string | undefined) => log.filter((d) => (JSON.parse(d.attempts[0]?.request_body as string) as { data: { payment: { id: string } } }).data.payment.id === id);
      const [original, copy] = byPayment(first);
      expect(original?.chaos).toMatchObject({ rule_id: duplicate.id, effect: 'duplicate', duplicate_of: null });
      expect(copy).toMatchObject({ event_id: original?.event_id, idempotency_key: original?.idempotency_key, chaos: { effect: 'duplicate', duplicate_of: original?.id } });
      const [nextOne] = byPayment(third);
      expect(byPayment(second)[0]?.chaos).toMatchObject({ rule_id: reorder.id, effect: 'reorder', released_by: nextOne?.id });
      expect(nextOne?.chaos).toBeNull();

      expect((await Promise.all(calm.received.map(verifiedPaymentId))).sort()).toEqual(calmPayments.map((p) => p.id).sort());
      expect((await deliveries(b.clients)).map((d) => d.chaos)).toEqual([null, null, null]);
      const rules = await a.clients.sandbox.listWebhookChaos();
      expect(rules).toMatchObject({ status: 200, body: [{ id: duplicate.id, applied: 1 }, { id: reorder.id, applied: 1 }] });
    } finally {
      await chaotic.close();
      await calm.close();
    }
  }, DELIVERY_WAITS);

  it.concurrent('fails the first N attempts without calling the receiver, and times one out, on the retry schedule of the sandbox clock', async () => {
    const receiver = await startReceiver();
    try {
      const { merchant, clients } = await merchantListening(receiver.url);
      await addRule(clients, { effect: { type: 'fail', attempts: 2 }, times: 1 });
      await addRule(clients, { effect: { type: 'timeout' }, times: 1 });
      const failing = await pay(clients, merchant);
      const timingOut = await pay(clients, merchant);
      await eventually(async () => ((await deliveries(clients)).every((d) => d.attempts.length === 1) ? true : undefined));
      await clients.sandbox.advanceClock({ body: { seconds: 5 * 60 } });
      await clients.sandbox.advanceClock({ body: { seconds: 50 * 60 } });
      const [failed, timedOut] = await deliveries(clients);
      expect(failed).toMatchObject({ state: 'delivered', chaos: { effect: 'fail', attempts: 2 } });
      expect(failed?.attempts.map((a) => [a.retry, a.status_code, a.chaos, a.request_body === ''])).toEqual([
        [0, null, 'fail', true],
        [1, null, 'fail', true],
        [2, 200, null, false],
      ]);
      expect(failed?.attempts[0]?.error).toMatch(/^webhook chaos: attempt 1 of the 2 that rule .+ fails; the receiver was not called$/);
      const gaps = failed?.attempts.slice(1).map((a, i) => (Date.parse(a.at) - Date.parse(failed.attempts[i]?.at as string)) / 60_000);
      expect(gaps).toEqual([5, 50]);
      expect(timedOut?.attempts.map((a) => [a.retry, a.status_code, a.chaos])).toEqual([
        [0, null, 'timeout'],
        [1, 200, null],
      ]);
      expect(timedOut?.attempts[0]?.error).toMatch(/^timed out \(webhook chaos rule .+\): the receiver answered 200/);
      // The receiver got the failing delivery once (its third attempt) and the timed-out one twice.
      const received = await Promise.all(receiver.received.map(async (r) => [await verifiedPaymentId(r), (JSON.parse(r.body) as { retry: number }).retry]));
      expect(received.sort()).toEqual([[failing.id, 2], [timingOut.id, 0], [timingOut.id, 1]].sort());
    } finally {
      await receiver.close();
    }
  }, DELIVERY_WAITS);

  it.concurrent('delays by sandbox seconds, bounds a reorder hold when no next delivery comes, and refuses bad rules; reset clears the rules', async () => {
    const receiver = await startReceiver();
    try {
      const { merchant, clients, webhookId } = await merchantListening(receiver.url);
      await addRule(clients, { effect: { type: 'delay', seconds: 600 }, times: 1 });
      await addRule(clients, { effect: { type: 'reorder', max_hold_seconds: 900 }, times: 1 });
      await pay(clients, merchant);
      await pay(clients, merchant); // held, and no delivery follows it
      const [delayed, held] = await deliveries(clients);
      expect(delayed).toMatchObject({ attempts: [], chaos: { effect: 'delay', held_until: delayed?.next_attempt_at } });
      expect(Date.parse(delayed?.next_attempt_at as string) - Date.parse(delayed?.created_at as string)).toBe(600_000);
      expect(Date.parse(held?.next_attempt_at as string) - Date.parse(held?.created_at as string)).toBe(900_000);
      await clients.sandbox.advanceClock({ body: { seconds: 600 } });
      expect((await deliveries(clients)).map((d) => d.state)).toEqual(['delivered', 'pending']);
      await clients.sandbox.advanceClock({ body: { seconds: 300 } });
      const [, released] = await deliveries(clients);
      expect(released).toMatchObject({ state: 'delivered', chaos: { effect: 'reorder', released_by: null } });
      expect(released?.attempts[0]?.at).toBe(released?.chaos?.held_until);

      const send = (method: string, path: string, body?: object) =>
        raw(sb.url, path, { method, headers: { ...keysOf(merchant), 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect(await send('POST', '/sandbox/webhook-chaos', { effect: { type: 'explode' } })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
      expect(await send('POST', '/sandbox/webhook-chaos', { effect: { type: 'fail', attempts: 8 } })).toMatchObject({ status: 400, body: { messages: [expect.stringContaining('effect.attempts')] } });
      expect(await send('POST', '/sandbox/webhook-chaos', { match: { webhook_id: 'wh_missing' }, effect: { type: 'duplicate' } })).toMatchObject({ status: 404, body: { code: 'WEBHOOK_NOT_FOUND' } });
      expect(await send('POST', '/sandbox/webhook-chaos', { match: { event_type: 'payment.teleport' }, effect: { type: 'duplicate' } })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [expect.stringContaining('match.event_type')] } });
      expect(await send('DELETE', '/sandbox/webhook-chaos/nope')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      const rule = await addRule(clients, { match: { webhook_id: webhookId }, effect: { type: 'duplicate' } });
      expect(await clients.sandbox.deleteWebhookChaos({ params: { chaos_id: rule.id } })).toMatchObject({ status: 200, body: { id: rule.id } });
      expect(await clients.sandbox.listWebhookChaos()).toMatchObject({ status: 200, body: [{ applied: 1 }, { applied: 1 }] });
      await clients.sandbox.reset();
      expect(await clients.sandbox.listWebhookChaos()).toMatchObject({ status: 200, body: [] });
    } finally {
      await receiver.close();
    }
  });
});

const replicasUrl = testDatabaseUrl('chaos.test.ts replicas');

describe.skipIf(!replicasUrl)('webhook chaos on two replicas of one PostgreSQL', () => {
  it('attempts each delivery, a duplicate and a chaos-failed one included, once when both dispatchers try it at the same moment', async () => {
    const url = replicasUrl as string;
    const db = await freshSchema(url);
    const a = await startSandbox({ databaseUrl: url, databaseSchema: db.schema });
    const b = await startSandbox({ databaseUrl: url, databaseSchema: db.schema });
    const receiver = await startReceiver();
    try {
      await a.sandbox.dispatcher.stop();
      await b.sandbox.dispatcher.stop();
      const m = await newMerchant(a.url);
      const viaA = clientsFor(a.url, m);
      const viaB = clientsFor(b.url, m);
      await viaA.webhooks.create({ body: { account_id: m.account_ids[0] as string, name: 'race', url: receiver.url, hmac_client_secret: SECRET, payment_triggers: ['PURCHASE'] } });
      // Rules created through one replica pick deliveries queued through the other.
      await viaA.sandbox.createWebhookChaos({ body: { effect: { type: 'duplicate' }, times: 1 } });
      await viaA.sandbox.createWebhookChaos({ body: { effect: { type: 'fail', attempts: 1 }, times: 1 } });
      await pay(viaB, m);
      await pay(viaB, m);
      const queued = await viaB.sandbox.listWebhookDeliveries({ query: {} });
      if (queued.status !== 200) throw new Error('deliveries');
      expect(queued.body.map((d) => d.chaos?.effect)).toEqual(['duplicate', 'duplicate', 'fail']);
      await Promise.all(queued.body.flatMap((d) => [a.sandbox.dispatcher.attempt(m.id, d.id, false), b.sandbox.dispatcher.attempt(m.id, d.id, false)]));
      const after = await viaA.sandbox.listWebhookDeliveries({ query: {} });
      expect(after.status === 200 && after.body.map((d) => d.attempts.map((x) => x.chaos))).toEqual([[null], [null], ['fail']]);
      expect(receiver.received).toHaveLength(2);
    } finally {
      await a.stop();
      await b.stop();
      await receiver.close();
      await db.drop();
    }
  });
});
