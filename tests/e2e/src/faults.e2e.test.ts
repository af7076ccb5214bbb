import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, createClient, TimeoutError, type ClientOptions, type ResponseInfo } from '@switchyard/client';
import { MAX_FAULT_LATENCY_MS, SANDBOX_FAULT_HEADER } from '@switchyard/contract';
import { fixtures } from '@switchyard/contract/fixtures';
import { startWorld, type World } from './sandbox.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.stop());

/** A fresh merchant's client whose attempts are all recorded (status, or undefined when no response came). */
async function merchant(options: Partial<ClientOptions> = {}) {
  const anonymous = createClient({ baseUrl: world.url, publicApiKey: 'none', privateSecretKey: 'none' });
  const m = await anonymous.sandbox.createMerchant({ body: { name: 'faults e2e' } });
  const attempts: ResponseInfo[] = [];
  const client = createClient({
    baseUrl: world.url,
    publicApiKey: m.public_api_key,
    privateSecretKey: m.private_secret_key,
    validateResponses: true,
    retryDelay: { initialDelayMs: 10 },
    onResponse: (info) => attempts.push(info),
    ...options,
  });
  const accountId = m.account_ids[0] as string;
  return { client, accountId, attempts, statuses: () => attempts.map((a) => a.status ?? a.errorCode) };
}

type Merchant = Awaited<ReturnType<typeof merchant>>;

async function paymentBody({ client, accountId }: Merchant) {
  const session = await client.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
  return { ...fixtures.createPayment(session.checkout_session), account_id: accountId };
}

/** The ids of every payment the merchant's events mention: how a test proves how many payments exist. */
async function paymentIds({ client }: Merchant): Promise<string[]> {
  const events = await client.sandbox.listEvents({ query: { limit: 1000 } });
  return [...new Set(events.filter((e) => e.resource_type === 'payment').map((e) => e.resource_id))];
}

const customer = () => ({ ...fixtures.createCustomer(), merchant_customer_id: `c-${crypto.randomUUID()}` });

describe('fault injection through the real client', () => {
  it.concurrent('commit-then-drop on POST /v1/payments: the retry with the same key gets the stored payment, and there is one', async () => {
    const m = await merchant();
    await m.client.sandbox.createFaultRule({ body: { match: { operation_id: 'createPayment' }, effect: { type: 'commit_then_drop' }, times: 1 } });
    const body = await paymentBody(m);
    m.attempts.length = 0;
    const payment = await m.client.payments.create({ body });
    expect(m.statuses()).toEqual(['ConnectionError', 201]);
    expect(m.attempts[0]?.idempotencyKey).toBe(m.attempts[1]?.idempotencyKey);
    expect(await paymentIds(m)).toEqual([payment.id]);
    // The answer is the original one, stored when the first attempt committed.
    const read = await m.client.payments.get({ params: { payment_id: payment.id } });
    expect(read).toMatchObject({ id: payment.id, status: payment.status, created_at: payment.created_at });
    // The journal shows both attempts under one key: the dropped one with its fault, then the replay.
    const journal = await m.client.sandbox.listRequests({ query: { operation_id: 'createPayment' } });
    expect(journal.map((e) => [e.idempotency_key, e.fault?.effect ?? null, e.replayed])).toEqual([
      [m.attempts[0]?.idempotencyKey, 'commit-then-drop', false],
      [m.attempts[0]?.idempotencyKey, null, true],
    ]);
  });

  it.concurrent('commit-then-drop without a retry ends in a connection error, and the payment exists once', async () => {
    const m = await merchant();
    const body = await paymentBody(m);
    const idempotencyKey = crypto.randomUUID();
    m.attempts.length = 0;
    const error = await m.client.payments.create({ body, idempotencyKey, maxRetries: 0, extraHeaders: { [SANDBOX_FAULT_HEADER]: 'commit-then-drop' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(m.attempts.map((a) => a.willRetry)).toEqual([false]);
    const [id] = await paymentIds(m);
    expect(await paymentIds(m)).toHaveLength(1);
    // The same key later (the header still on it) is a replay, which is never dropped.
    const replayed = await m.client.payments.raw.create({ body, idempotencyKey, extraHeaders: { [SANDBOX_FAULT_HEADER]: 'commit-then-drop' } });
    expect(replayed).toMatchObject({ status: 201, body: { id } });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  });

  it.concurrent('a POST without an idempotency key is never retried after a dropped response', async () => {
    const m = await merchant();
    const body = customer();
    const error = await m.client.customers.create({ body, extraHeaders: { [SANDBOX_FAULT_HEADER]: 'commit-then-drop' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(m.statuses()).toEqual(['ConnectionError']);
    // It committed: the same merchant_customer_id is now taken.
    const again = await m.client.customers.raw.create({ body });
    expect(again).toMatchObject({ status: 400, body: { code: 'CUSTOMER_ID_DUPLICATED' } });
  });

  it.concurrent('honours Retry-After on a 429 from a rate_limit rule', async () => {
    // The Retry-After of each 429 the client got (the client's hooks never see headers).
    const retryAfter: (string | null)[] = [];
    const m = await merchant({
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (response.status === 429) retryAfter.push(response.headers.get('retry-after'));
        return response;
      },
    });
    // One token, refilled in 4 s: the second create is refused as long as it comes within 4 s of the
    // first. With a refill of 1 s, a machine slow enough to spend a second between them got no 429.
    await m.client.sandbox.createFaultRule({ body: { match: { operation_id: 'createCustomer' }, effect: { type: 'rate_limit', capacity: 1, refill_per_second: 0.25 } } });
    m.attempts.length = 0;
    await m.client.customers.create({ body: customer() });
    const started = Date.now();
    await m.client.customers.create({ body: customer() });
    const waited = Date.now() - started;
    expect(m.statuses()).toEqual([201, 429, 201]);
    // Backoff alone would wait at most 10 ms (initialDelayMs): the wait is the server's Retry-After,
    // at least 1 s (up to 4 s, less the time that passed since the first create).
    expect(retryAfter).toHaveLength(1);
    const seconds = Number(retryAfter[0]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(waited).toBeGreaterThanOrEqual(seconds * 1000 - 100);
    expect(await m.client.sandbox.listFaultRules()).toMatchObject([{ matched: 3, fired: 1 }]);
    // Every attempt is in the journal, the refused one with the fault that refused it.
    const journal = await m.client.sandbox.listRequests({ query: { operation_id: 'createCustomer' } });
    expect(journal.map((e) => [e.status, e.fault?.effect ?? null])).toEqual([
      [201, null],
      [429, 'rate-limit'],
      [201, null],
    ]);
  });

  it.concurrent('a latency rule makes the per-attempt time-out fire, and the retry succeeds', async () => {
    const m = await merchant();
    const created = await m.client.customers.create({ body: customer() });
    // The longest latency a rule takes (MAX_FAULT_LATENCY_MS), and a time-out well under it that
    // still leaves the retry, which has no latency, seconds to answer on a slow machine (2.5 s did
    // not, on one 20 times slower than usual).
    await m.client.sandbox.createFaultRule({ body: { match: { operation_id: 'getCustomer' }, effect: { type: 'latency', ms: MAX_FAULT_LATENCY_MS }, times: 1 } });
    m.attempts.length = 0;
    const read = await m.client.customers.get({ params: { customer_id: created.id }, timeoutMs: 8_000 });
    expect(read.id).toBe(created.id);
    expect(m.statuses()).toEqual(['TimeoutError', 200]);
  });

  it.concurrent('a 5xx rule with times: the client retries through it', async () => {
    const m = await merchant();
    await m.client.sandbox.createFaultRule({ body: { match: { operation_id: 'createPayment' }, effect: { type: 'status', status: 503 }, times: 2 } });
    const body = await paymentBody(m);
    m.attempts.length = 0;
    const payment = await m.client.payments.create({ body });
    expect(m.statuses()).toEqual([503, 503, 201]);
    expect(await paymentIds(m)).toEqual([payment.id]);
  });

  it.concurrent('another merchant, in parallel, sees none of these faults', async () => {
    const faulted = await merchant({ maxRetries: 0 });
    const other = await merchant();
    for (const effect of [{ type: 'status', status: 500 }, { type: 'rate_limit', capacity: 1, refill_per_second: 0.01 }, { type: 'reset' }] as const) {
      await faulted.client.sandbox.createFaultRule({ body: { match: {}, effect } });
    }
    const [faultedAnswer, ...answers] = await Promise.all([
      faulted.client.customers.raw.create({ body: customer() }),
      ...Array.from({ length: 5 }, () => other.client.customers.create({ body: customer() })),
      paymentBody(other).then((body) => other.client.payments.create({ body })),
    ]);
    expect(faultedAnswer.status).toBe(500);
    expect(answers).toHaveLength(6);
    expect(other.attempts.every((a) => a.attempt === 0 && a.status !== undefined && a.status < 300)).toBe(true);
  });
});

describe('the client against a reset', () => {
  it('retries a keyed call through resets until its retries run out', async () => {
    const m = await merchant({ maxRetries: 1 });
    const body = await paymentBody(m);
    m.attempts.length = 0;
    const error = await m.client.payments.create({ body, extraHeaders: { [SANDBOX_FAULT_HEADER]: 'reset' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(m.statuses()).toEqual(['ConnectionError', 'ConnectionError']);
    expect(await paymentIds(m)).toEqual([]);
  });
});
