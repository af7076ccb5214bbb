import { describe, expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../app/sandbox.js';
import { keysOf, newMerchant, raw } from '../test-support/harness.js';
import { sandboxForSuite } from '../test-support/stores.js';

const sb = sandboxForSuite({ bodyLimit: '64kb' });

const demoKeys = keysOf(DEMO_MERCHANT);
const json = { 'content-type': 'application/json' };

describe('runtime', () => {
  it('answers /health and /ready', async () => {
    expect((await raw(sb.url, '/health')).body).toEqual({ status: 'ok' });
    expect(await raw(sb.url, '/ready')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('puts an x-request-id on every response and echoes the caller\'s', async () => {
    const generated = await raw(sb.url, '/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await raw(sb.url, '/v1/nothing', { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
  });

  it('answers unknown routes 404 in the error shape', async () => {
    expect(await raw(sb.url, '/v1/unknown', { headers: demoKeys })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', messages: [expect.stringContaining('/v1/unknown')] },
    });
  });

  it('answers a wrong method 405 UNSUPPORTED_METHOD with Allow', async () => {
    const res = await raw(sb.url, '/v1/customers', { method: 'PUT', headers: demoKeys });
    expect(res).toMatchObject({ status: 405, body: { code: 'UNSUPPORTED_METHOD' } });
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers 401 INVALID_CREDENTIALS without keys or with a wrong secret', async () => {
    expect(await raw(sb.url, '/v1/customers', { method: 'POST', headers: json, body: '{}' })).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS' },
    });
    const wrong = { ...demoKeys, 'private-secret-key': 'sandbox_sk_wrong' };
    expect(await raw(sb.url, '/v1/customers', { method: 'POST', headers: { ...wrong, ...json }, body: '{}' })).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIALS', messages: ['invalid API credentials'] },
    });
  });

  it('answers malformed JSON 400 in the error shape', async () => {
    const res = await raw(sb.url, '/v1/customers', { method: 'POST', headers: { ...demoKeys, ...json }, body: '{"merchant_customer_id": ' });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: ['the request body is not valid JSON'] } });
  });

  it('answers bodies over the limit 413, naming the limit and the setting that raises it', async () => {
    const body = JSON.stringify({ merchant_customer_id: 'big-one', first_name: 'x'.repeat(70_000) });
    expect(await raw(sb.url, '/v1/customers', { method: 'POST', headers: { ...demoKeys, ...json }, body })).toMatchObject({
      status: 413,
      body: { code: 'REQUEST_TOO_LARGE', messages: ['the request body is larger than the 64 KB (65536 bytes) the sandbox accepts; SANDBOX_BODY_LIMIT raises the limit'] },
    });
  });

  it('names every invalid field, never raw zod output', async () => {
    const res = await raw(sb.url, '/v1/checkout/sessions', {
      method: 'POST',
      headers: { ...demoKeys, ...json },
      body: JSON.stringify({ merchant_order_id: 'x', country: 'FR', account_id: DEMO_MERCHANT.account_ids[0], amount: { currency: 'ARS', value: 1.00001 } }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'INVALID_REQUEST',
      messages: expect.arrayContaining([
        'body.merchant_order_id: must be at least 3 characters',
        'body.payment_description: is required',
        expect.stringMatching(/^body\.country: must be one of AR, BO/),
        'body.amount.value: must be a multiple of 0.0001 (at most 4 decimals)',
      ]),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/ZodError|issues/);
  });

  it('tells a query number or flag what it takes, naming what it received, on every route that has one', async () => {
    const cases = [
      ['/sandbox/events?limit=abc', 'query.limit: must be a whole number, received "abc"'],
      ['/sandbox/events?limit=', 'query.limit: must be a whole number, received ""'],
      ['/sandbox/webhook-deliveries?limit=1.5', 'query.limit: must be a whole number, received "1.5"'],
      ['/sandbox/requests?status=teapot', 'query.status: must be a whole number, received "teapot"'],
      ['/sandbox/requests?limit=0x10', 'query.limit: must be a whole number, received "0x10"'],
      ['/sandbox/inspector/overview?limit=1e2', 'query.limit: must be a whole number, received "1e2"'],
      ['/sandbox/events?limit=99999999999999999999', 'query.limit: must be a whole number of at most 15 digits'],
      ['/sandbox/events?limit=0', 'query.limit: must be at least 1'],
      [`/v1/payments/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}?raw_response=maybe`, 'query.raw_response: must be true or false, received "maybe"'],
      [`/v1/payments/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}?transactions_history=1`, 'query.transactions_history: must be true or false, received "1"'],
    ] as const;
    for (const [path, message] of cases) {
      expect(await raw(sb.url, path, { headers: demoKeys }), path).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [message] } });
    }
    expect(await raw(sb.url, '/sandbox/events?limit=2', { headers: demoKeys })).toMatchObject({ status: 200 });
  });

  it('names invalid path parameters', async () => {
    const res = await raw(sb.url, '/v1/payments/not-a-uuid', { headers: demoKeys });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: ['path.payment_id: must be a valid uuid'] } });
  });

  it('rejects a missing idempotency key with MISSING_PARAMETERS before reading the body', async () => {
    const res = await raw(sb.url, '/v1/payments', { method: 'POST', headers: { ...demoKeys, ...json }, body: '{not json' });
    expect(res).toMatchObject({ status: 400, body: { code: 'MISSING_PARAMETERS' } });
  });

  it('answers a missing key on the banking family with its one validation code, as it answers a non-UUID key', async () => {
    const send = (key: Record<string, string>) => raw(sb.url, '/v1/banking/entities', { method: 'POST', headers: { ...demoKeys, ...json, ...key }, body: '{}' });
    for (const res of [await send({}), await send({ 'x-idempotency-key': 'not-a-uuid' })]) {
      expect(res).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', http_code: 400 } });
      expect((res.body as { messages: string[] }).messages.join(' ')).toContain('x-idempotency-key');
    }
  });

  it('creates isolated merchants with fresh keys', async () => {
    const a = await newMerchant(sb.url);
    const b = await newMerchant(sb.url);
    expect(a.public_api_key).toMatch(/^sandbox_pk_/);
    expect(a.public_api_key).not.toBe(b.public_api_key);
    expect(a.account_ids[0]).not.toBe(b.account_ids[0]);
    expect((await raw(sb.url, '/sandbox/clock', { headers: keysOf(a) })).status).toBe(200);
  });

  it('answers 403 AUTHORIZATION_REQUIRED for an account the merchant does not own', async () => {
    const other = await newMerchant(sb.url);
    const res = await raw(sb.url, '/v1/checkout/sessions', {
      method: 'POST',
      headers: { ...demoKeys, ...json },
      body: JSON.stringify({ merchant_order_id: 'order-1', payment_description: 'Order 1', country: 'AR', account_id: other.account_ids[0] }),
    });
    expect(res).toMatchObject({ status: 403, body: { code: 'AUTHORIZATION_REQUIRED' } });
  });
});
