import { afterEach, describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import {
  APIError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  UnprocessableEntityError,
  createClient,
  isSwitchyardError,
  type ResponseInfo,
} from './index.js';
import { startFaultServer, type Step } from './test-support/fault-server.js';

const PAYMENT_ID = '0f0e0d0c-0b0a-4909-8807-060504030201';
const TX_ID = '1f0e0d0c-0b0a-4909-8807-060504030201';
const apiError = (code: string) => ({ code, messages: [`${code} happened`] });

let server: Awaited<ReturnType<typeof startFaultServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(steps: Step[], options: Partial<Parameters<typeof createClient>[0]> = {}) {
  server = await startFaultServer(steps);
  return createClient({
    baseUrl: `${server.url}/`,
    publicApiKey: 'pk_test_visible',
    privateSecretKey: 'sk_test_secret_value',
    retryDelay: { initialDelayMs: 5, maxDelayMs: 50 },
    ...options,
  });
}

const refund = (client: Awaited<ReturnType<typeof clientFor>>, extra: Record<string, unknown> = {}) =>
  client.payments.refund({ params: { id: PAYMENT_ID, transaction_id: TX_ID }, body: fixtures.refund(), ...extra });

describe('retries and idempotency keys', () => {
  it('sends the same generated UUID v4 key on every attempt, with a retry-count header on retries', async () => {
    const client = await clientFor([{ status: 503, body: apiError('INTERNAL_ERROR') }, { status: 503 }, { status: 200, body: { ok: true } }]);
    await expect(refund(client)).resolves.toEqual({ ok: true });
    const keys = server?.requests.map((r) => r.headers['x-idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys?.[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(server?.requests.map((r) => r.headers['x-retry-count'])).toEqual([undefined, '1', '2']);
  });

  it('uses a new key for each call', async () => {
    const client = await clientFor([{ status: 200, body: {} }]);
    await refund(client);
    await refund(client);
    expect(server?.requests[0]?.headers['x-idempotency-key']).not.toBe(server?.requests[1]?.headers['x-idempotency-key']);
  });

  it("uses the caller's own key", async () => {
    const client = await clientFor([{ status: 500 }, { status: 200, body: {} }]);
    await refund(client, { idempotencyKey: 'order-42-refund' });
    expect(server?.requests.map((r) => r.headers['x-idempotency-key'])).toEqual(['order-42-refund', 'order-42-refund']);
  });

  it('retries 429 honouring Retry-After in seconds', async () => {
    const client = await clientFor([{ status: 429, body: apiError('TOO_MANY_REQUESTS'), headers: { 'retry-after': '0.3' } }, { status: 200, body: {} }], {
      retryDelay: { initialDelayMs: 1, maxDelayMs: 5000 },
    });
    const started = Date.now();
    await refund(client);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(server?.requests).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP date, capped by maxDelayMs', async () => {
    const later = new Date(Date.now() + 60_000).toUTCString();
    const client = await clientFor([{ status: 503, headers: { 'retry-after': later } }, { status: 200, body: {} }], { retryDelay: { initialDelayMs: 1, maxDelayMs: 100 } });
    const started = Date.now();
    await refund(client);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(90);
    // Far below the 60 s the header asks for, whatever the machine's speed: the cap applied.
    expect(waited).toBeLessThan(30_000);
  });

  it('retries a reset connection', async () => {
    const client = await clientFor([{ reset: true }, { status: 200, body: { ok: 1 } }]);
    await expect(refund(client)).resolves.toEqual({ ok: 1 });
    expect(server?.requests).toHaveLength(2);
  });

  it('retries 408 and 400 REQUEST_IN_PROCESS, not other 400s', async () => {
    const client = await clientFor([{ status: 408 }, { status: 400, body: apiError('REQUEST_IN_PROCESS') }, { status: 200, body: {} }]);
    await refund(client);
    expect(server?.requests).toHaveLength(3);
    const other = await clientFor([{ status: 400, body: apiError('INVALID_AMOUNT') }]);
    await expect(refund(other)).rejects.toBeInstanceOf(InvalidRequestError);
    expect(server?.requests).toHaveLength(1);
  });

  it('gives up after maxRetries (default 2) with the last error', async () => {
    const client = await clientFor([{ status: 502, body: apiError('PROVIDER_INTERNAL_ERROR') }]);
    await expect(refund(client)).rejects.toMatchObject({ name: 'ServerError', status: 502, code: 'PROVIDER_INTERNAL_ERROR' });
    expect(server?.requests).toHaveLength(3);
  });

  it('takes maxRetries per client and per call', async () => {
    const client = await clientFor([{ status: 503 }], { maxRetries: 4 });
    await expect(refund(client)).rejects.toBeInstanceOf(ServerError);
    expect(server?.requests).toHaveLength(5);
    const perCall = await clientFor([{ status: 503 }], { maxRetries: 4 });
    await expect(refund(perCall, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(server?.requests).toHaveLength(1);
  });

  it('never retries a POST without an idempotency key', async () => {
    const client = await clientFor([{ status: 503 }, { status: 201, body: {} }]);
    await expect(client.customers.create({ body: { merchant_customer_id: 'cust-1' } })).rejects.toBeInstanceOf(ServerError);
    expect(server?.requests).toHaveLength(1);
    expect(server?.requests[0]?.headers['x-idempotency-key']).toBeUndefined();
    const reset = await clientFor([{ reset: true }, { status: 201, body: {} }]);
    await expect(reset.customers.create({ body: { merchant_customer_id: 'cust-1' } })).rejects.toBeInstanceOf(ConnectionError);
    expect(server?.requests).toHaveLength(1);
  });

  it('retries a POST without a key after a 429 only, which refused it unprocessed', async () => {
    const client = await clientFor([{ status: 429, body: apiError('TOO_MANY_REQUESTS'), headers: { 'retry-after': '0' } }, { status: 201, body: { id: 'c' } }]);
    await expect(client.customers.create({ body: { merchant_customer_id: 'cust-1' } })).resolves.toEqual({ id: 'c' });
    expect(server?.requests).toHaveLength(2);
  });

  it('retries a GET', async () => {
    const client = await clientFor([{ status: 500 }, { status: 200, body: { id: PAYMENT_ID } }]);
    await expect(client.payments.get({ params: { payment_id: PAYMENT_ID } })).resolves.toEqual({ id: PAYMENT_ID });
    expect(server?.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
  });
});

describe('time-outs and cancellation', () => {
  it('times out each attempt and throws TimeoutError after the retries', async () => {
    // Each attempt must reach the server before it times out (both are counted below): 100 ms was
    // too short for that on a machine 20 times slower than usual.
    const client = await clientFor([{ hang: true }], { timeoutMs: 1_000, maxRetries: 1 });
    const started = Date.now();
    await expect(refund(client)).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(server?.requests).toHaveLength(2);
  });

  it('still times out when the caller passes its own signal', async () => {
    const client = await clientFor([{ hang: true }], { timeoutMs: 100, maxRetries: 0 });
    const controller = new AbortController();
    await expect(refund(client, { fetchOptions: { signal: controller.signal } })).rejects.toBeInstanceOf(TimeoutError);
  });

  it("stops at once, without retrying, when the caller's signal aborts", async () => {
    // "At once" is measured against the time-out, not against the machine's speed: well under the
    // 60 s a time-out (let alone four attempts) would take, on any machine.
    const client = await clientFor([{ hang: true }], { timeoutMs: 60_000, maxRetries: 3 });
    const controller = new AbortController();
    const arrived = async () => {
      while ((server?.requests.length ?? 0) === 0) await new Promise((r) => setTimeout(r, 5));
    };
    void arrived().then(() => controller.abort(new Error('user left')));
    const started = Date.now();
    const error = await refund(client, { fetchOptions: { signal: controller.signal } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain('aborted by the caller');
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(server?.requests).toHaveLength(1);
  });

  it('takes a per-call timeout', async () => {
    const client = await clientFor([{ status: 200, body: {}, delayMs: 300 }], { timeoutMs: 5000, maxRetries: 0 });
    await expect(refund(client, { timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('errors', () => {
  it.each([
    [400, InvalidRequestError, 'InvalidRequestError'],
    [401, AuthenticationError, 'AuthenticationError'],
    [403, PermissionError, 'PermissionError'],
    [404, NotFoundError, 'NotFoundError'],
    [409, ConflictError, 'ConflictError'],
    [422, UnprocessableEntityError, 'UnprocessableEntityError'],
    [429, RateLimitError, 'RateLimitError'],
    [500, ServerError, 'ServerError'],
    [503, ServerError, 'ServerError'],
  ] as const)('maps %i to %s with status, code, messages, requestId, headers and raw', async (status, Class, name) => {
    const body = apiError('SOME_CODE');
    const client = await clientFor([{ status, body, headers: { 'x-request-id': 'req-abc', 'retry-after': '0' } }], { maxRetries: 0 });
    const error = await refund(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(isSwitchyardError(error)).toBe(true);
    expect(error).toMatchObject({ name, status, code: 'SOME_CODE', messages: ['SOME_CODE happened'], requestId: 'req-abc', raw: body });
    expect((error as APIError).headers['x-request-id']).toBe('req-abc');
    expect((error as Error).message).toBe(`${status} SOME_CODE: SOME_CODE happened`);
  });

  it('has ConnectionError and TimeoutError without a status', async () => {
    const client = await clientFor([{ reset: true }], { maxRetries: 0 });
    const error = await refund(client).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ConnectionError', status: undefined });
    expect(isSwitchyardError(error)).toBe(true);
    expect(isSwitchyardError(new Error('x'))).toBe(false);
    expect(isSwitchyardError({ name: 'ConnectionError' })).toBe(false);
  });

  it('fails at once with a ConnectionError on a redirect, never following it', async () => {
    const client = await clientFor([{ status: 307, headers: { location: '/elsewhere' } }]);
    const error = await client.payments.get({ params: { payment_id: PAYMENT_ID } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/redirect.*check baseUrl/);
    expect(server?.requests.map((r) => r.url)).toEqual([`/v1/payments/${PAYMENT_ID}`]);
  });

  it('recognises errors from another copy of the package (the brand is a global symbol)', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('switchyard.client.error')]: true });
    expect(isSwitchyardError(foreign)).toBe(true);
  });

  it('never puts the API keys in an error', async () => {
    const client = await clientFor([{ status: 401, body: apiError('INVALID_CREDENTIALS') }], { maxRetries: 0 });
    const error = await refund(client).catch((e: unknown) => e);
    const dump = JSON.stringify(error, Object.getOwnPropertyNames(error)) + String((error as Error).stack);
    expect(dump).not.toContain('sk_test_secret_value');
    expect(dump).not.toContain('pk_test_visible');
  });

  it('offers raw for the {status, body} union', async () => {
    const client = await clientFor([{ status: 400, body: apiError('INVALID_AMOUNT') }], { maxRetries: 0 });
    const res = await client.payments.raw.refund({ params: { id: PAYMENT_ID, transaction_id: TX_ID }, body: fixtures.refund() });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_AMOUNT' } });
  });
});

describe('hooks, base URL, keys and validation', () => {
  it('reports every attempt to the hooks without secrets', async () => {
    const seen: ResponseInfo[] = [];
    const requests: unknown[] = [];
    const client = await clientFor([{ status: 503 }, { status: 200, body: {} }], {
      onRequest: (info) => requests.push(info),
      onResponse: (info) => seen.push(info),
    });
    await refund(client);
    expect(requests).toHaveLength(2);
    expect(seen.map((s) => [s.method, s.status, s.attempt, s.willRetry, s.requestId])).toEqual([
      ['POST', 503, 0, true, 'req-1'],
      ['POST', 200, 1, false, 'req-2'],
    ]);
    expect(seen[0]?.path).toBe(`/v1/payments/${PAYMENT_ID}/transactions/${TX_ID}/refund`);
    expect(seen[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify([seen, requests])).not.toMatch(/sk_test_secret_value|pk_test_visible/);
  });

  it('sends both keys and never doubles the slash after the base URL', async () => {
    const client = await clientFor([{ status: 200, body: {} }]);
    await client.payments.get({ params: { payment_id: PAYMENT_ID } });
    expect(server?.requests[0]).toMatchObject({ url: `/v1/payments/${PAYMENT_ID}`, headers: { 'public-api-key': 'pk_test_visible', 'private-secret-key': 'sk_test_secret_value' } });
  });

  it('validates responses against the contract when asked, naming the field', async () => {
    const client = await clientFor([{ status: 201, body: { id: 'not-a-uuid', merchant_customer_id: 'c' } }], { validateResponses: true, maxRetries: 0 });
    const error = await client.customers.create({ body: { merchant_customer_id: 'cust-1' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).messages).toEqual(expect.arrayContaining(['response.id: must be a valid uuid', 'response.created_at: is required']));
  });

  it('does not validate by default', async () => {
    const client = await clientFor([{ status: 201, body: { id: 'not-a-uuid' } }]);
    await expect(client.customers.create({ body: { merchant_customer_id: 'cust-1' } })).resolves.toEqual({ id: 'not-a-uuid' });
  });

  it('refuses to build without keys', () => {
    expect(() => createClient({ publicApiKey: '', privateSecretKey: 'x' })).toThrow(TypeError);
  });
});
