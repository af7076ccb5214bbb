import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientsFor, newMerchant, pay, startSandbox } from '../test-support/harness.js';
import { eventually } from '../test-support/receiver.js';

/** A receiver that takes every POST and never answers it. */
async function hangingReceiver() {
  const held: ServerResponse<IncomingMessage>[] = [];
  const server = createServer((_req, res) => void held.push(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    held,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}

describe('WebhookDispatcher.stop', () => {
  it('aborts the POSTs in flight and never starts those waiting for a turn (a hanging receiver never holds a shutdown)', async () => {
    const receiver = await hangingReceiver();
    // A time-out far past the test's own: were a POST sent after stop(), stop() would wait for it.
    const { url, sandbox, stop } = await startSandbox({ webhookTimeoutMs: 60_000 });
    try {
      // Eight POSTs at most are in flight at once over every merchant; ten merchants make two wait.
      const merchants = await Promise.all(Array.from({ length: 10 }, () => newMerchant(url)));
      for (const merchant of merchants) {
        const clients = clientsFor(url, merchant);
        const created = await clients.webhooks.create({ body: { account_id: merchant.account_ids[0] as string, name: 'hangs', url: receiver.url, payment_triggers: ['PURCHASE'] } });
        expect(created.status).toBe(201);
        await pay(clients, merchant);
      }
      await eventually(async () => (receiver.held.length === 8 ? true : undefined), 30_000);
      await sandbox.dispatcher.stop();
      // Every run of the dispatcher has settled: nothing more can be sent.
      expect(receiver.held).toHaveLength(8);
      const attempts = await Promise.all(
        merchants.map(async (merchant) => {
          const list = await clientsFor(url, merchant).sandbox.listWebhookDeliveries({ query: {} });
          if (list.status !== 200) throw new Error('deliveries');
          return list.body.flatMap((d) => d.attempts);
        }),
      );
      // The eight in flight are recorded as cut by the stop; the two never sent record nothing.
      expect(attempts.flat()).toHaveLength(8);
      for (const attempt of attempts.flat()) expect(attempt).toMatchObject({ status_code: null, error: 'the sandbox stopped during the attempt' });
    } finally {
      await stop();
      await receiver.close();
    }
  }, 60_000);
});
