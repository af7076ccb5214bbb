import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { MAX_FAULT_RULES, type SandboxMerchant } from '@switchyard/contract';
import { fixtures } from '@switchyard/contract/fixtures';
import { clientsFor, idemKey, keysOf, newMerchant, raw, startSandbox, type Clients, type RunningSandbox } from '../../test-support/harness.js';
import { sandboxPerStore } from '../../test-support/stores.js';
import { MemoryStore } from '../../store/memory.js';
import { faults } from './faults.js';

const customer = () => ({ ...fixtures.createCustomer(), merchant_customer_id: `c-${crypto.randomUUID()}` });

sandboxPerStore('http/api/faults.test.ts', 'fault rules on the $name store', (sb) => {

  async function merchantWithClients(): Promise<{ merchant: SandboxMerchant; clients: Clients }> {
    const merchant = await newMerchant(sb.url);
    return { merchant, clients: clientsFor(sb.url, merchant) };
  }

  it.concurrent('applies the minimal rule as written, to this merchant only, and counts what it matched', async () => {
    const { clients } = await merchantWithClients();
    const other = await merchantWithClients();
    const created = await clients.sandbox.createFaultRule({ body: { match: { operation_id: 'createCustomer' }, effect: { type: 'status', status: 500 } } });
    expect(created).toMatchObject({ status: 201, body: { probability: 1, seed: 0, times: null, after: 0, matched: 0, fired: 0 } });
    const faulted = await clients.customers.create({ body: customer() });
    expect(faulted).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR', messages: [expect.stringContaining('fault rule')] } });
    expect((await other.clients.customers.create({ body: customer() })).status).toBe(201);
    const listed = await clients.sandbox.listFaultRules();
    expect(listed).toMatchObject({ status: 200, body: [{ matched: 1, fired: 1 }] });
    expect(await other.clients.sandbox.listFaultRules()).toMatchObject({ status: 200, body: [] });
  });

  it.concurrent('fires a rule with times on the next N matches only: 503 then success', async () => {
    const { clients } = await merchantWithClients();
    await clients.sandbox.createFaultRule({ body: { match: { method: 'POST', path: '/v1/customers' }, effect: { type: 'status', status: 503, retry_after: 2 }, times: 1 } });
    const body = customer();
    const first = await clients.customers.create({ body });
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('2');
    expect((await clients.customers.create({ body })).status).toBe(201);
  });

  it.concurrent('answers 429 with Retry-After and RateLimit headers once the bucket is empty', async () => {
    const { clients } = await merchantWithClients();
    await clients.sandbox.createFaultRule({ body: { match: {}, effect: { type: 'rate_limit', capacity: 1, refill_per_second: 0.01 } } });
    const allowed = await clients.customers.create({ body: customer() });
    expect(allowed.status).toBe(201);
    expect(allowed.headers.get('ratelimit-limit')).toBe('1');
    const refused = await clients.customers.create({ body: customer() });
    expect(refused).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } });
    expect([refused.headers.get('retry-after'), refused.headers.get('ratelimit-remaining')]).toEqual(['100', '0']);
    // The control API is never limited or faulted: the test can always clean up.
    expect(await clients.sandbox.clearFaultRules()).toMatchObject({ status: 200, body: { deleted: 1 } });
    expect((await clients.customers.create({ body: customer() })).status).toBe(201);
  });

  it.concurrent('deletes one rule, answers 404 for an unknown one, and reset removes the rest and the mark that makes requests read them', async () => {
    const { merchant, clients } = await merchantWithClients();
    const marked = async () => (await sb.sandbox.store.getMerchant(merchant.id))?.fault_rules_used ?? false;
    const rule = { match: { operation_id: 'getCustomer' }, effect: { type: 'reset' as const } };
    const a = await clients.sandbox.createFaultRule({ body: rule });
    await clients.sandbox.createFaultRule({ body: rule });
    if (a.status !== 201) throw new Error('setup');
    expect(await clients.sandbox.deleteFaultRule({ params: { fault_id: a.body.id } })).toMatchObject({ status: 200, body: { id: a.body.id } });
    expect(await clients.sandbox.deleteFaultRule({ params: { fault_id: a.body.id } })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await marked()).toBe(true);
    await clients.sandbox.reset();
    expect(await clients.sandbox.listFaultRules()).toMatchObject({ status: 200, body: [] });
    expect(await marked()).toBe(false);
  });

  it.concurrent('refuses rules out of bounds with the field in the API error shape', async () => {
    const { clients } = await merchantWithClients();
    const bad = [
      { match: { operation_id: 'sandboxReset' }, effect: { type: 'reset' } },
      { match: {}, effect: { type: 'latency', ms: 60_000 } },
      { match: {}, effect: { type: 'latency', ms: 10, min_ms: 1, max_ms: 5 } },
      { match: {}, effect: { type: 'status', status: 302 } },
      { match: {}, effect: { type: 'explode' } },
    ];
    const { merchant } = await merchantWithClients();
    const headers = { ...keysOf(merchant), 'content-type': 'application/json' };
    const answers = await Promise.all(bad.map((body) => raw(sb.url, '/sandbox/faults', { method: 'POST', headers, body: JSON.stringify(body) })));
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
    expect(answers.map((a) => (a.body?.messages as string[]).join())).toEqual([
      'body.match.operation_id: must be the operationId of a /v1 route, as GET /openapi.json lists them; control routes under /sandbox cannot be faulted',
      expect.stringContaining('effect.ms'),
      expect.stringContaining('exactly one of'),
      expect.stringContaining('effect.status'),
      expect.stringContaining('effect.type'),
    ]);
    for (let i = 0; i < MAX_FAULT_RULES; i += 1) await clients.sandbox.createFaultRule({ body: { match: { operation_id: 'getPayment' }, effect: { type: 'reset' } } });
    const over = await clients.sandbox.createFaultRule({ body: { match: {}, effect: { type: 'reset' } } });
    expect(over).toMatchObject({ status: 400, body: { messages: [expect.stringContaining(`at most ${MAX_FAULT_RULES}`)] } });
  });

  it.concurrent('tells a rule naming a control route or a misspelt operationId what it may name, in one bounded message', async () => {
    const { merchant } = await merchantWithClients();
    const headers = { ...keysOf(merchant), 'content-type': 'application/json' };
    const create = (operationId: string) => raw(sb.url, '/sandbox/faults', { method: 'POST', headers, body: JSON.stringify({ match: { operation_id: operationId }, effect: { type: 'reset' } }) });
    const rule = 'body.match.operation_id: must be the operationId of a /v1 route, as GET /openapi.json lists them; control routes under /sandbox cannot be faulted';
    expect(await create('getClock')).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [rule] } });
    expect(await create('createCustomers')).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [`${rule}; did you mean createCustomer?`] } });
    expect(await create('getpayment')).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [`${rule}; did you mean getPayment?`] } });
  });
});

describe('the x-sandbox-fault header and connection faults', () => {
  let sb: RunningSandbox;
  let merchant: SandboxMerchant;
  let clients: Clients;
  beforeAll(async () => {
    sb = await startSandbox();
    merchant = await newMerchant(sb.url);
    clients = clientsFor(sb.url, merchant);
  });
  afterAll(() => sb.stop());

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${sb.url}${path}`, { method: 'POST', headers: { ...keysOf(merchant), 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it.concurrent('refuses a malformed value with 400 naming the header', async () => {
    const res = await raw(sb.url, '/v1/customers', { method: 'POST', headers: { ...keysOf(merchant), 'content-type': 'application/json', 'x-sandbox-fault': 'status=200' }, body: JSON.stringify(customer()) });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: [expect.stringContaining('x-sandbox-fault')] } });
  });

  it.concurrent('answers status=503;retry-after=2 in the API error shape, and leaves control routes alone', async () => {
    const res = await raw(sb.url, '/v1/customers', { method: 'POST', headers: { ...keysOf(merchant), 'content-type': 'application/json', 'x-sandbox-fault': 'status=503;retry-after=2' }, body: JSON.stringify(customer()) });
    expect(res).toMatchObject({ status: 503, body: { code: 'INTERNAL_ERROR' } });
    expect(res.headers.get('retry-after')).toBe('2');
    expect((await raw(sb.url, '/sandbox/faults', { headers: { ...keysOf(merchant), 'x-sandbox-fault': 'reset' } })).status).toBe(200);
  });

  it.concurrent('resets the connection before processing: nothing is created', async () => {
    const body = customer();
    await expect(post('/v1/customers', body, { 'x-sandbox-fault': 'reset' })).rejects.toThrow();
    const created = await clients.customers.create({ body });
    expect(created.status).toBe(201);
  });

  it.concurrent('commit-then-drop: the payment commits, the connection drops, a retry with the key gets the stored answer', async () => {
    const session = await clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: merchant.account_ids[0] as string } });
    if (session.status !== 200) throw new Error('setup');
    const body = { ...fixtures.createPayment(session.body.checkout_session), account_id: merchant.account_ids[0] as string };
    const key = idemKey();
    await expect(post('/v1/payments', body, { 'x-idempotency-key': key, 'x-sandbox-fault': 'commit-then-drop' })).rejects.toThrow();
    const retry = await post('/v1/payments', body, { 'x-idempotency-key': key, 'x-sandbox-fault': 'commit-then-drop' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const payment = (await retry.json()) as { id: string };
    expect((await clients.payments.get({ params: { payment_id: payment.id } })).status).toBe(200);
  });

  it.concurrent('stalls after the headers, then destroys the socket', async () => {
    await clients.sandbox.createFaultRule({ body: { match: { operation_id: 'createCheckoutSession' }, effect: { type: 'stall', ms: 50 } } });
    const res = await post('/v1/checkout/sessions', { ...fixtures.createCheckoutSession(), account_id: merchant.account_ids[0] as string }, {});
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });
});

describe('res.locals.fault', () => {
  it('records the source, rule and effect of the fault for the journal', async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.route = { meta: { operationId: 'createCustomer', domain: 'customers' } } as never;
      res.locals.merchant = { id: 'm1' } as never;
      next();
    });
    app.use(faults({ store: new MemoryStore() }));
    app.use((_req, res) => {
      res.json(res.locals.fault);
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/customers`, { headers: { 'x-sandbox-fault': 'latency=1ms' } });
      expect(await res.json()).toEqual({ source: 'header', effect: 'latency=1ms' });
    } finally {
      server.close();
    }
  });
});
