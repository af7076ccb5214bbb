import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryAttempt, DeliveryState } from '../domain/webhook-delivery.js';
import { createLogger } from '../logger.js';
import { BaseClock } from '../runtime/clock.js';
import { MemoryStore } from '../store/memory.js';
import type { Store } from '../store/types.js';
import { freshSchemaStores, testDatabaseUrl } from '../test-support/database.js';
import { clientsFor, newMerchant, pay, startSandbox } from '../test-support/harness.js';
import { merchantRecord } from '../test-support/merchant-record.js';
import { eventually, startHangingReceiver } from '../test-support/receiver.js';
import { MAX_POSTS_PER_MERCHANT, WebhookDispatcher } from './dispatcher.js';

describe('WebhookDispatcher.stop', () => {
  it('aborts the POSTs in flight and never starts those waiting for a turn (a hanging receiver never holds a shutdown)', async () => {
    const receiver = await startHangingReceiver();
    // A time-out far past the test's own: were a POST sent after stop(), stop() would wait for it.
    const { url, sandbox, stop } = await startSandbox({ webhookTimeoutMs: 60_000 });
    try {
      // One merchant has at most MAX_POSTS_PER_MERCHANT POSTs in flight: two more webhooks make two wait.
      const merchant = await newMerchant(url);
      const clients = clientsFor(url, merchant);
      const webhooks = MAX_POSTS_PER_MERCHANT + 2;
      for (let i = 0; i < webhooks; i++) {
        const created = await clients.webhooks.create({ body: { account_id: merchant.account_ids[0] as string, name: `hangs-${i}`, url: `${receiver.url}/${i}`, payment_triggers: ['PURCHASE'] } });
        expect(created.status).toBe(201);
      }
      await pay(clients, merchant);
      await eventually(async () => (receiver.held.length === MAX_POSTS_PER_MERCHANT ? true : undefined), 30_000);
      await sandbox.dispatcher.stop();
      // Every run of the dispatcher has settled: nothing more can be sent.
      expect(receiver.held).toHaveLength(MAX_POSTS_PER_MERCHANT);
      const list = await clients.sandbox.listWebhookDeliveries({ query: {} });
      if (list.status !== 200) throw new Error('deliveries');
      const attempts = list.body.flatMap((d) => d.attempts);
      // Those in flight are recorded as cut by the stop; the two never sent record nothing.
      expect(attempts).toHaveLength(MAX_POSTS_PER_MERCHANT);
      for (const attempt of attempts) expect(attempt).toMatchObject({ status_code: null, error: 'the sandbox stopped during the attempt' });
    } finally {
      await stop();
      await receiver.close();
    }
  }, 60_000);
});

/** A pending delivery of event `eventId` whose webhook is gone, so an attempt is recorded without a POST: what shows it was taken at all. */
const pendingDelivery = (eventId: string, nextAttemptAt: Date, attempts: DeliveryAttempt[] = []): DeliveryState => ({
  id: `d-${eventId}`, event_id: eventId, event_type: 'payment.purchase', webhook_id: 'gone', url: 'http://127.0.0.1:9/hooks', account_id: 'a',
  state: 'pending', idempotency_key: eventId, envelope: {}, attempts, next_attempt_at: nextAttemptAt.toISOString(), claimed_until_ms: null, created_at: new Date().toISOString(), chaos: null,
});

const databaseUrl = testDatabaseUrl('dispatcher.test.ts');

/** The stores the dispatcher runs on: memory, and PostgreSQL in a schema of its own when TEST_DATABASE_URL is set. */
const stores: { name: string; open: () => Promise<{ store: Store; close: () => Promise<void> }> }[] = [
  { name: 'memory', open: async () => ({ store: new MemoryStore(), close: async () => {} }) },
];
if (databaseUrl) {
  stores.push({
    name: 'PostgreSQL',
    open: async () => {
      const db = await freshSchemaStores(databaseUrl);
      return { store: await db.connect(4), close: db.close };
    },
  });
}

describe.each(stores)('WebhookDispatcher.kick on $name', ({ open }) => {
  let store: Store;
  let close: () => Promise<void> = async () => {};
  let dispatcher: WebhookDispatcher;
  beforeEach(async () => {
    ({ store, close } = await open());
    dispatcher = new WebhookDispatcher(store, new BaseClock(undefined), createLogger('silent'), { timeoutMs: 1_000, timeScale: 1, sweepMs: 20 });
  });
  afterEach(async () => {
    await dispatcher.stop();
    await close();
  });

  const deliveryOf = (merchantId: string, id: string) => store.withTransaction(merchantId, (tx) => tx.get<DeliveryState>('webhook_delivery', id));

  /**
   * Kicks the merchant the way the queuing transaction does (app/context.ts, recordEvents), then
   * queues `delivery` only once the runs that kick asked for have looked and found nothing: on a
   * busy database the queuing transaction may commit that late. Resolves with the delivery once
   * an attempt of it is recorded.
   */
  async function kickBeforeCommit(merchantId: string, delivery: DeliveryState): Promise<DeliveryState> {
    dispatcher.start();
    dispatcher.kick(merchantId);
    // The kick's run starts on a 5 ms timer: a later, longer one fires after it, and a run
    // asked for then goes after the kick's. Both find nothing: the delivery's transaction has
    // not committed yet.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await dispatcher.runDue(merchantId);
    await store.withTransaction(merchantId, (tx) => tx.put('webhook_delivery', delivery.id, delivery));
    return eventually(async () => {
      const d = await deliveryOf(merchantId, delivery.id);
      return d?.attempts.length ? d : undefined;
    });
  }

  it('sends a delivery whose transaction committed after the run the kick started had looked', async () => {
    await store.putMerchantIfAbsent(merchantRecord('late'));
    const attempted = await kickBeforeCommit('late', pendingDelivery('e-late', new Date()));
    expect(attempted.attempts[0]).toMatchObject({ retry: 0, status_code: null, error: 'the webhook was deleted' });
  });

  // A retry due later must not set when the merchant is next swept while a kick's deliveries may
  // still be committing: they would wait for the retry, minutes late.
  it('sends such a delivery long before a retry of the merchant pending an hour later falls due', async () => {
    await store.putMerchantIfAbsent(merchantRecord('retrying'));
    const failed: DeliveryAttempt = { retry: 0, at: new Date().toISOString(), status_code: 500, duration_ms: 1, error: null, request_body: '{}', signature: '' };
    const retry = pendingDelivery('e-retry', new Date(Date.now() + 3_600_000), [failed]);
    await store.withTransaction('retrying', (tx) => tx.put('webhook_delivery', retry.id, retry));
    const attempted = await kickBeforeCommit('retrying', pendingDelivery('e-new', new Date()));
    expect(attempted.attempts[0]).toMatchObject({ retry: 0, status_code: null, error: 'the webhook was deleted' });
    // The retry was not due: it was left as it was.
    expect(await deliveryOf('retrying', retry.id)).toMatchObject({ attempts: [failed], next_attempt_at: retry.next_attempt_at });
  });
});
