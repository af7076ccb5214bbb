import { describe, expect, it } from 'vitest';
import type { DeliveryState } from '../domain/webhook-delivery.js';
import { createLogger } from '../logger.js';
import { BaseClock } from '../runtime/clock.js';
import { MemoryStore } from '../store/memory.js';
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

describe('WebhookDispatcher.kick', () => {
  // The kick comes from inside the queuing transaction (app/context.ts, recordEvents); on a busy
  // database that transaction may commit after the kick's run looked and found nothing.
  it('sends a delivery whose transaction committed after the run the kick started had looked', async () => {
    const store = new MemoryStore();
    await store.putMerchantIfAbsent(merchantRecord('late'));
    const dispatcher = new WebhookDispatcher(store, new BaseClock(undefined), createLogger('silent'), { timeoutMs: 1_000, timeScale: 1, sweepMs: 20 });
    dispatcher.start();
    try {
      dispatcher.kick('late');
      // The kick's run starts on a 5 ms timer: a later, longer one fires after it, and a run
      // asked for then goes after the kick's. Both find nothing: the delivery's transaction has
      // not committed yet.
      await new Promise((resolve) => setTimeout(resolve, 10));
      await dispatcher.runDue('late');
      const delivery: DeliveryState = {
        id: 'd-late', event_id: 'e-late', event_type: 'payment.purchase', webhook_id: 'gone', url: 'http://127.0.0.1:9/hooks', account_id: 'a',
        state: 'pending', idempotency_key: 'e-late', envelope: {}, attempts: [], next_attempt_at: new Date().toISOString(), claimed_until_ms: null, created_at: new Date().toISOString(), chaos: null,
      };
      await store.withTransaction('late', (tx) => tx.put('webhook_delivery', delivery.id, delivery));
      // Its webhook is gone, so the attempt is recorded without a POST: what shows it was taken at all.
      const attempted = await eventually(async () => {
        const d = await store.withTransaction('late', (tx) => tx.get<DeliveryState>('webhook_delivery', 'd-late'));
        return d?.attempts.length ? d : undefined;
      });
      expect(attempted.attempts[0]).toMatchObject({ retry: 0, status_code: null, error: 'the webhook was deleted' });
    } finally {
      await dispatcher.stop();
    }
  });
});
