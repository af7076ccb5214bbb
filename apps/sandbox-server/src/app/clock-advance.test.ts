import { afterAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '@switchyard/client';
import { MAX_CLOCK_ADVANCE_SECONDS, type WebhookDelivery } from '@switchyard/contract';
import { freshSchema, testDatabaseUrl } from '../test-support/database.js';
import { clientsFor, newMerchant, raw, startSandbox, type RunningSandbox } from '../test-support/harness.js';
import { dailySubscriptionsWithDeadWebhook, latenciesDuring } from '../test-support/clock-load.js';
import { EVENT_RETENTION_MS } from '../domain/due-work.js';
import { MAX_ATTEMPTS } from '../domain/webhook-routing.js';

const DAY_MS = 86400_000;
/**
 * Served between batches, no probe waits more than a small part of the whole advance; a
 * stall shows as one probe waiting about as long as the advance itself. A share rather than a
 * number of milliseconds, so a machine busy with other suites slows both sides alike (a fixed 1 s
 * bound failed at a load average of 20 with no stall). Speed is the benchmark's business.
 */
const STALL_SHARE = 0.25;

/** GET /health; the abort only keeps a server that never answers from hanging the test. */
const health = (url: string) => () =>
  fetch(`${url}/health`, { signal: AbortSignal.timeout(120_000) }).then((res) => {
    if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
  });

/**
 * One tenant advancing its clock 10 years over a daily subscription and a webhook at a
 * closed port must not stall the server. `/health` and another tenant are served throughout; the
 * result is what 10 years of that subscription are (docs/sandbox.md, "Time").
 */
function tenYearsOfDailyBilling(start: () => Promise<RunningSandbox>) {
  let sb: RunningSandbox;
  afterAll(() => sb?.stop());

  it('serves /health and other tenants throughout, never stalled, and bills every day of the 10 years', async () => {
    sb = await start();
    const merchant = await newMerchant(sb.url);
    const clients = clientsFor(sb.url, merchant);
    const other = clientsFor(sb.url, await newMerchant(sb.url));
    const { subscriptionIds, webhookUrl } = await dailySubscriptionsWithDeadWebhook(clients, merchant.account_ids[0] as string);
    const [subscriptionId] = subscriptionIds as [string];
    const before = await clients.subscriptions.get({ params: { id: subscriptionId } });
    if (before.status !== 200) throw new Error('subscription');

    // 3651 charges take a while on a busy machine's PostgreSQL: the call may outlast the client's default time-out.
    const patient = createClient({ baseUrl: sb.url, publicApiKey: merchant.public_api_key, privateSecretKey: merchant.private_secret_key, maxRetries: 0, timeoutMs: 600_000 });
    const started = performance.now();
    const { result: advanced, latencies } = await latenciesDuring(patient.sandbox.raw.advanceClock({ body: { seconds: MAX_CLOCK_ADVANCE_SECONDS } }), async () => {
      await health(sb.url)();
      const clock = await other.sandbox.getClock();
      if (clock.status !== 200 || clock.body.offset_seconds !== 0) throw new Error('the other tenant was not served its own clock');
    });

    expect(advanced).toMatchObject({ status: 200, body: { offset_seconds: MAX_CLOCK_ADVANCE_SECONDS } });
    const advanceMs = performance.now() - started;
    expect(latencies.length).toBeGreaterThan(1 / STALL_SHARE);
    expect(Math.max(...latencies)).toBeLessThan(advanceMs * STALL_SHARE);
    if (process.env.CLOCK_ADVANCE_REPORT) console.log(`probes ${latencies.length}, worst ${Math.max(...latencies).toFixed(1)} ms`);

    // One cycle at creation, then one a day: 3650 days later the 3651st is charged.
    const after = await clients.subscriptions.get({ params: { id: subscriptionId } });
    expect(after).toMatchObject({ status: 200, body: { status: 'ACTIVE', billing_cycles: { current: 3651 } } });
    if (after.status !== 200) return;
    expect(Date.parse(after.body.billing_cycles.next_at as string) - Date.parse(before.body.billing_cycles.next_at as string)).toBe(3650 * DAY_MS);

    // Retention keeps the last 30 days of events and finished deliveries; each cycle is stamped at the day it fell due.
    const cycles = await clients.sandbox.listEvents({ query: { type: 'subscription.cycle_executed', resource_id: subscriptionId, limit: 1000 } });
    if (cycles.status !== 200 || advanced.status !== 200) throw new Error('events');
    const nowMs = Date.parse(advanced.body.now);
    expect(cycles.body.length).toBeGreaterThanOrEqual(29);
    expect(cycles.body.length).toBeLessThanOrEqual(31);
    for (const e of cycles.body) expect(nowMs - Date.parse(e.created_at)).toBeLessThan(EVENT_RETENTION_MS);
    const days = cycles.body.map((e) => Date.parse(e.created_at));
    expect(days.slice(1).map((d, i) => d - (days[i] as number))).toEqual(Array(days.length - 1).fill(DAY_MS));

    // Each delivery's first attempt was really sent and refused; the rest of its schedule inside the advance was recorded as not sent.
    const listed = await clients.sandbox.listWebhookDeliveries({ query: { limit: 1000 } });
    if (listed.status !== 200) throw new Error('deliveries');
    const settled = listed.body.filter((d: WebhookDelivery) => d.attempts.length === MAX_ATTEMPTS);
    expect(settled.length).toBeGreaterThan(0);
    for (const d of settled) {
      expect(d).toMatchObject({ url: webhookUrl, state: 'failed', next_attempt_at: null });
      expect(d.attempts.map((a) => a.retry)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      for (const a of d.attempts) expect(a.status_code).toBeNull();
    }
    const sent = listed.body.flatMap((d: WebhookDelivery) => d.attempts).filter((a) => a.request_body !== '');
    const notSent = listed.body.flatMap((d: WebhookDelivery) => d.attempts).filter((a) => a.request_body === '');
    expect(notSent.length).toBeGreaterThan(0);
    for (const a of notSent) expect(a).toMatchObject({ status_code: null, signature: '', error: expect.stringMatching(/^not sent: /) });
    for (const a of sent) expect(a.error).toMatch(/fetch failed|ECONNREFUSED/);
  }, 600_000);

  it(`refuses more than ${MAX_CLOCK_ADVANCE_SECONDS} seconds in one call with a 400 naming the field`, async () => {
    const merchant = await newMerchant(sb.url);
    const res = await raw(sb.url, '/sandbox/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'public-api-key': merchant.public_api_key, 'private-secret-key': merchant.private_secret_key },
      body: JSON.stringify({ seconds: MAX_CLOCK_ADVANCE_SECONDS + 1 }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', messages: [expect.stringContaining('seconds')] });
    expect(await clientsFor(sb.url, merchant).sandbox.getClock()).toMatchObject({ status: 200, body: { offset_seconds: 0 } });
  });
}

describe('a 10-year clock advance on the memory store', () => {
  tenYearsOfDailyBilling(() => startSandbox());
});

const url = testDatabaseUrl('clock-advance.test.ts');
describe.skipIf(!url)('a 10-year clock advance on PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  afterAll(() => drop?.());
  tenYearsOfDailyBilling(async () => {
    const db = await freshSchema(url as string);
    drop = db.drop;
    return startSandbox({ databaseUrl: url, databaseSchema: db.schema });
  });
});

describe('a merchant removed during an advance', () => {
  let sb: RunningSandbox;
  afterAll(() => sb?.stop());

  it('answers 401 INVALID_CREDENTIALS, as for any key that names no merchant, never a clock built from the stale record', async () => {
    sb = await startSandbox();
    const merchant = await newMerchant(sb.url);
    // The row goes between the advance's read and its update: the store's update finds nobody
    // (PostgreSQL's UPDATE … RETURNING of a deleted row; test-support/store-contract.ts checks both stores do so).
    const update = vi.spyOn(sb.sandbox.store, 'updateMerchant').mockResolvedValueOnce(undefined);
    try {
      const res = await clientsFor(sb.url, merchant).sandbox.advanceClock({ body: { seconds: 3600 } });
      expect(update).toHaveBeenCalledWith(merchant.id, expect.any(Function));
      expect(res).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS', messages: ['invalid API credentials'] } });
    } finally {
      update.mockRestore();
    }
  });
});
