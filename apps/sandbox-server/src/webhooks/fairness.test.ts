import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientsFor, newMerchant, pay, type Clients } from '../test-support/harness.js';
import { eventually, startHangingReceiver, startReceiver } from '../test-support/receiver.js';
import { sandboxOn, storesUnderTest } from '../test-support/stores.js';
import { MAX_POSTS_PER_MERCHANT } from './dispatcher.js';

/** Webhooks the greedy merchant points at a receiver that never answers. */
const SILENT_WEBHOOKS = 16;

async function listen(clients: Clients, accountId: string, name: string, url: string): Promise<void> {
  const created = await clients.webhooks.create({ body: { account_id: accountId, name, url, payment_triggers: ['PURCHASE'] } });
  if (created.status !== 201) throw new Error(`webhook: ${JSON.stringify(created.body)}`);
}

describe.each(storesUnderTest('fairness.test.ts'))('one merchant cannot stall the webhooks of others, on the $name store', (store) => {
  // A time-out longer than the test: were another merchant's delivery waiting for the silent
  // receiver's POSTs, it would never arrive while they are held.
  const sb = sandboxOn(store, { webhookTimeoutMs: 60_000 });
  let silent: Awaited<ReturnType<typeof startHangingReceiver>>;
  let calm: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    silent = await startHangingReceiver();
    calm = await startReceiver();
  });
  afterAll(async () => {
    await silent?.close();
    await calm?.close();
  });

  it('delivers another merchant’s webhook while one merchant’s 16 silent receivers hold their POSTs', async () => {
    const greedy = await newMerchant(sb.url);
    const greedyClients = clientsFor(sb.url, greedy);
    for (let i = 0; i < SILENT_WEBHOOKS; i++) await listen(greedyClients, greedy.account_ids[0] as string, `silent-${i}`, `${silent.url}/${i}`);
    await pay(greedyClients, greedy);
    await eventually(async () => (silent.held.length > 0 ? true : undefined));

    const other = await newMerchant(sb.url);
    const otherClients = clientsFor(sb.url, other);
    await listen(otherClients, other.account_ids[0] as string, 'calm', calm.url);
    const paid = performance.now();
    await pay(otherClients, other);
    await eventually(async () => (calm.received.length === 1 ? true : undefined));
    const latencyMs = performance.now() - paid;
    // Still held: the delivery did not wait for any of them to end.
    expect(silent.held.length).toBeGreaterThan(0);
    expect(silent.held.every(({ res }) => !res.writableEnded)).toBe(true);
    expect(sb.sandbox.dispatcher.posts.inUse(greedy.id)).toBeLessThanOrEqual(MAX_POSTS_PER_MERCHANT);
    console.info(`another merchant's delivery arrived ${Math.round(latencyMs)} ms after its payment, ${silent.held.length} silent POSTs held (${store.name})`);
  });

  it('answers a clock advance while its receiver still holds the POST the advance made', async () => {
    const merchant = await newMerchant(sb.url);
    const clients = clientsFor(sb.url, merchant);
    const before = silent.held.length;
    await listen(clients, merchant.account_ids[0] as string, 'silent', `${silent.url}/advance`);
    // A payment a day ahead of the clock is not possible; the payment's delivery is due at once, and
    // the advance sends it (the kick would too: whichever goes first, the POST is held).
    await pay(clients, merchant);
    const advanced = await clients.sandbox.advanceClock({ body: { seconds: 365 * 86400 } });
    expect(advanced.status).toBe(200);
    const held = silent.held.slice(before).filter(({ path }) => path === '/hooks/advance');
    expect(held).toHaveLength(1);
    expect(held[0]?.res.writableEnded).toBe(false);
    const list = await clients.sandbox.listWebhookDeliveries({ query: {} });
    if (list.status !== 200) throw new Error('deliveries');
    // The attempt is still in flight: nothing is recorded for it yet.
    expect(list.body.flatMap((d) => d.attempts)).toHaveLength(0);
  });
});
