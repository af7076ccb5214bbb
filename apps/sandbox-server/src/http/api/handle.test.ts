import { describe, expect, it } from 'vitest';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { fixtures } from '@switchyard/contract/fixtures';
import { meta, type RouteMeta } from '@switchyard/contract';
import { idemKey, keysOf, pay, raw, sandboxWithMerchant } from '../../test-support/harness.js';
import { successStatusOf } from './handle.js';

const c = initContract();
const thingMeta: RouteMeta = meta({ operationId: 'makeThing', idempotent: false, supporting: true, specSection: null, domain: 'sandbox', errors: [] });

describe('successStatusOf', () => {
  it("reads the route's one 2xx status from its responses", () => {
    const route = c.router({ make: { method: 'POST', path: '/things', body: z.object({}), responses: { 201: z.object({}), 400: z.object({}) }, metadata: thingMeta } }).make;
    expect(successStatusOf(route, thingMeta)).toBe(201);
  });

  it('refuses a route with two success statuses, which would leave the answer ambiguous', () => {
    const route = c.router({ make: { method: 'POST', path: '/things', body: z.object({}), responses: { 200: z.object({}), 201: z.object({}) }, metadata: thingMeta } }).make;
    expect(() => successStatusOf(route, thingMeta)).toThrow('makeThing must have exactly one success response, has 2');
  });
});

describe('the handle wrapper, through HTTP', () => {
  const w = sandboxWithMerchant();
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    raw(w.sb.url, path, { method: 'POST', headers: { ...keysOf(w.merchant), 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('runs a route whose key is optional (createSubscription) under the key when one is given, and replays it', async () => {
    const customer = await w.clients.customers.create({ body: { merchant_customer_id: 'handle-sub' } });
    if (customer.status !== 201) throw new Error('setup');
    const method = await w.clients.paymentMethods.enrollDirect({
      params: { customer_id: customer.body.id },
      body: { ...fixtures.enrollDirect(), account_id: w.accountId },
      headers: { 'x-idempotency-key': idemKey() },
    });
    if (method.status !== 200) throw new Error('setup');
    const body = { ...fixtures.createSubscription(method.body.vaulted_token), account_id: w.accountId };
    const key = idemKey();
    const first = await post('/v1/subscriptions', body, { 'x-idempotency-key': key });
    const replay = await post('/v1/subscriptions', body, { 'x-idempotency-key': key });
    expect(first.status).toBe(200);
    expect(replay).toMatchObject({ status: 200, body: { id: first.body?.id } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const unkeyed = [await post('/v1/subscriptions', body), await post('/v1/subscriptions', body)];
    expect(unkeyed.map((r) => r.status)).toEqual([200, 200]);
    expect(unkeyed[0]?.body?.id).not.toBe(unkeyed[1]?.body?.id);
  });

  it('refuses a bad x-sandbox-provider-latency-ms before the idempotency key is used', async () => {
    const payment = await pay(w.clients, w.merchant);
    const transactionId = payment.transactions?.id as string;
    const key = idemKey();
    const path = `/v1/payments/${payment.id}/transactions/${transactionId}/refund`;
    const bad = await post(path, { ...fixtures.refund(), amount: { value: 10, currency: 'ARS' } }, { 'x-idempotency-key': key, 'x-sandbox-provider-latency-ms': 'soon' });
    expect(bad).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: [expect.stringContaining('x-sandbox-provider-latency-ms must be an integer')] } });
    const good = await post(path, { ...fixtures.refund(), amount: { value: 10, currency: 'ARS' } }, { 'x-idempotency-key': key, 'x-sandbox-provider-latency-ms': '0' });
    expect(good.status).toBe(200);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });
});
