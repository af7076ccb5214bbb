import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fixtures } from '@switchyard/contract/fixtures';
import type { Clients } from './harness.js';
import { idemKey } from './harness.js';

/** A URL on a port nothing listens on: every POST there is refused at once. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}

/**
 * A long clock advance's load: daily subscriptions without an end on an approved card, and a webhook
 * that wants every subscription and payment event pointing at a dead receiver.
 */
export async function dailySubscriptionsWithDeadWebhook(clients: Clients, accountId: string, count = 1): Promise<{ subscriptionIds: string[]; webhookUrl: string }> {
  const webhookUrl = await closedPortUrl();
  const webhook = await clients.webhooks.create({
    body: { account_id: accountId, name: 'dead receiver', url: webhookUrl, hmac_client_secret: 'whsec-dead', payment_triggers: ['PURCHASE'], subscription_triggers: ['CREATE', 'ACTIVE', 'COMPLETE'] },
  });
  if (webhook.status !== 201) throw new Error(`webhook: ${JSON.stringify(webhook.body)}`);
  const customer = await clients.customers.create({ body: { merchant_customer_id: `daily-${idemKey()}` } });
  if (customer.status !== 201) throw new Error('customer');
  const enroll = fixtures.enrollDirect();
  const method = await clients.paymentMethods.enrollDirect({ params: { customer_id: customer.body.id }, body: { ...enroll, account_id: accountId }, headers: { 'x-idempotency-key': idemKey() } });
  if (method.status !== 200) throw new Error('enrollment');
  const subscriptionIds: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const { billing_cycles: _forever, ...body } = fixtures.createSubscription(method.body.vaulted_token);
    const created = await clients.subscriptions.create({ body: { ...body, name: `daily ${i + 1}`, account_id: accountId, frequency: { type: 'DAY', value: 1 } } });
    if (created.status !== 200) throw new Error(`subscription: ${JSON.stringify(created.body)}`);
    subscriptionIds.push(created.body.id);
  }
  return { subscriptionIds, webhookUrl };
}

/**
 * Calls `probe` over and over until `work` settles, and returns how long each call took (ms): the
 * worst must stay well under what a health check tolerates. `work` is always awaited, so it is
 * never left unhandled: a failing probe fails the call once `work` has settled (with `work`'s
 * own failure first), and a failing `work` ends the probing at once.
 */
export async function latenciesDuring<T>(work: Promise<T>, probe: () => Promise<unknown>, everyMs = 50): Promise<{ result: T; latencies: number[] }> {
  let settled = false;
  let wake: (() => void) | undefined;
  const done = work.finally(() => {
    settled = true;
    wake?.();
  });
  // Handled here and again below: a rejection while the loop sleeps is never "unhandled".
  done.catch(() => undefined);
  const latencies: number[] = [];
  let probeError: unknown;
  while (!settled) {
    const started = performance.now();
    try {
      await probe();
      latencies.push(performance.now() - started);
    } catch (error) {
      probeError = error ?? new Error('the probe failed');
      break;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, everyMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  const result = await done;
  if (probeError !== undefined) throw probeError;
  return { result, latencies };
}
