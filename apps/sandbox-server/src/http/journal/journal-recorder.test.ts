import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import type { JournalEntry } from '@switchyard/contract';
import { clientsFor, idemKey, keysOf, newMerchant, sandboxWithMerchant, type Clients } from '../../test-support/harness.js';
import { eventually } from '../../test-support/receiver.js';
import type { MerchantRecord } from '../../store/types.js';
import { RequestJournal } from './journal.js';
import { journalRecorder, NO_RESPONSE_STATUS } from './journal-recorder.js';
import { sendJson } from '../server/send-json.js';

const w = sandboxWithMerchant();

async function journal(clients: Clients, query: Record<string, string | number> = {}): Promise<JournalEntry[]> {
  const res = await clients.sandbox.listRequests({ query });
  if (res.status !== 200) throw new Error(`journal: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A merchant of its own: each test reads a journal no other test writes to. */
async function fresh() {
  const merchant = await newMerchant(w.sb.url);
  return { merchant, clients: clientsFor(w.sb.url, merchant), accountId: merchant.account_ids[0] as string };
}

async function createPayment(clients: Clients, accountId: string, key: string) {
  const session = await clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
  if (session.status !== 200) throw new Error('session');
  const body = { ...fixtures.createPayment(session.body.checkout_session, '4111111111111111'), account_id: accountId, description: 'card 4111 1111 1111 1111 by phone' };
  return { body, send: () => clients.payments.create({ body, headers: { 'x-idempotency-key': key } }) };
}

describe('request journal (GET /sandbox/requests)', () => {
  it.concurrent('journals each /v1 request with status, ids and masked bodies, and marks an idempotent replay', async () => {
    const { clients, accountId } = await fresh();
    const key = idemKey();
    const payment = await createPayment(clients, accountId, key);
    const first = await payment.send();
    const replay = await payment.send();
    expect(first.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const entries = await journal(clients, { operation_id: 'createPayment' });
    expect(entries).toHaveLength(2);
    const [original, replayed] = entries as [JournalEntry, JournalEntry];
    expect(original).toMatchObject({ method: 'POST', path: '/v1/payments', status: 201, idempotency_key: key, replayed: false, fault: null, request_id: first.headers.get('x-request-id') });
    expect(replayed).toMatchObject({ status: 201, idempotency_key: key, replayed: true });
    expect(original.at).toMatch(/Z$/);
    expect(original.duration_ms).toBeGreaterThan(0);
    expect(original.request_body).toMatchObject({
      description: 'card ***1111 by phone',
      payment_method: { detail: { card: { card_data: { number: '***1111', holder_name: 'ADA LOVELACE' } } } },
    });
    expect(JSON.stringify(entries)).not.toMatch(/4111 ?1111 ?1111 ?1111|"123"/);
    expect(original.response_body).toMatchObject({ id: first.status === 201 ? first.body.id : '', status: first.status === 201 ? first.body.status : '' });
    // The checkout session and the two payments, oldest first; no control API request.
    expect((await journal(clients)).map((e) => e.operation_id)).toEqual(['createCheckoutSession', 'createPayment', 'createPayment']);
  });

  it.concurrent('filters by status, operation id and time, answers the most recent `limit`, and is per merchant', async () => {
    const { clients } = await fresh();
    const other = await fresh();
    await clients.customers.create({ body: { merchant_customer_id: 'journal-1' } });
    const missing = await clients.payments.get({ params: { payment_id: '00000000-0000-4000-8000-000000000000' } });
    expect(missing.status).toBe(400);
    await clients.customers.create({ body: { merchant_customer_id: 'journal-2' } });
    const all = await journal(clients);
    expect(all.map((e) => [e.operation_id, e.status])).toEqual([
      ['createCustomer', 201],
      ['getPayment', 400],
      ['createCustomer', 201],
    ]);
    expect(all[1]).toMatchObject({ method: 'GET', request_body: null, response_body: { code: 'PAYMENT_NOT_FOUND' } });
    expect((await journal(clients, { status: 400 })).map((e) => e.operation_id)).toEqual(['getPayment']);
    expect(await journal(clients, { operation_id: 'createCustomer', limit: 1 })).toMatchObject([{ request_body: { merchant_customer_id: 'journal-2' } }]);
    const [, second] = all as [JournalEntry, JournalEntry, JournalEntry];
    expect((await journal(clients, { since: second.at })).map((e) => e.id)).toEqual(all.filter((e) => e.at >= second.at).map((e) => e.id));
    expect(await journal(clients, { until: '2000-01-01T00:00:00Z' })).toEqual([]);
    expect(await journal(other.clients)).toEqual([]);
  });

  it.concurrent('refuses a bad filter with a 400 in the API error shape', async () => {
    const { clients } = await fresh();
    const tooMany = await clients.sandbox.listRequests({ query: { limit: 100000 } });
    expect(tooMany).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
    expect(JSON.stringify(tooMany.body)).toContain('limit');
    const badTime = await clients.sandbox.listRequests({ query: { since: 'yesterday' } });
    expect(badTime).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
    expect(JSON.stringify(badTime.body)).toContain('since');
  });

  /** Polls the journal until it holds `count` entries of the operation: an entry is written when its connection closes. */
  const entriesOf = (clients: Clients, operation_id: string, count: number) =>
    eventually(async () => {
      const entries = await journal(clients, { operation_id });
      return entries.length === count ? entries : undefined;
    });

  it.concurrent('journals a request whose client went away before the answer as status 0, with no response body', async () => {
    const { merchant, clients } = await fresh();
    await clients.sandbox.createFaultRule({ body: { match: { operation_id: 'createCustomer' }, effect: { type: 'latency', ms: 20_000 }, times: 1 } });
    const client = new AbortController();
    const abandoned = fetch(`${w.sb.url}/v1/customers`, {
      method: 'POST',
      headers: { ...keysOf(merchant), 'content-type': 'application/json' },
      body: JSON.stringify({ merchant_customer_id: 'journal-abandoned' }),
      signal: client.signal,
    });
    // The rule counted the request: the sandbox holds it in the latency, with no answer yet.
    await eventually(async () => ((await clients.sandbox.listFaultRules()).body as { matched: number }[])[0]?.matched === 1 || undefined);
    client.abort();
    await expect(abandoned).rejects.toThrow();
    expect(await entriesOf(clients, 'createCustomer', 1)).toMatchObject([
      { method: 'POST', path: '/v1/customers', status: NO_RESPONSE_STATUS, response_body: null, fault: { source: 'rule', effect: 'latency=20000ms' } },
    ]);
    // Not as the 201 the handler would have answered.
    expect(await journal(clients, { status: 201 })).toEqual([]);
  });

  it.concurrent('journals a response dropped by a fault as status 0, and its replay with the status sent', async () => {
    const { merchant, clients, accountId } = await fresh();
    const key = idemKey();
    const { body } = await createPayment(clients, accountId, key);
    const send = () =>
      fetch(`${w.sb.url}/v1/payments`, {
        method: 'POST',
        headers: { ...keysOf(merchant), 'content-type': 'application/json', 'x-idempotency-key': key, 'x-sandbox-fault': 'commit-then-drop' },
        body: JSON.stringify(body),
      });
    await expect(send()).rejects.toThrow();
    expect((await send()).status).toBe(201);
    expect(await entriesOf(clients, 'createPayment', 2)).toMatchObject([
      { status: NO_RESPONSE_STATUS, replayed: false, response_body: null, fault: { source: 'header', effect: 'commit-then-drop' } },
      { status: 201, replayed: true, response_body: { amount: { value: body.amount.value } } },
    ]);
  });

  it.concurrent('is cleared by POST /sandbox/reset', async () => {
    const { clients } = await fresh();
    await clients.customers.create({ body: { merchant_customer_id: 'journal-reset' } });
    expect(await journal(clients)).toHaveLength(1);
    expect((await clients.sandbox.reset()).status).toBe(200);
    expect(await journal(clients)).toEqual([]);
  });
});

describe('journal recorder', () => {
  /** An app whose only route plays a faults middleware: it marks the fault, then answers or drops the connection. */
  async function faultyServer(journal: RequestJournal) {
    const app = express();
    app.response.json = sendJson;
    app.use(journalRecorder(journal));
    app.use((req, res) => {
      res.locals.merchant = { id: 'm' } as MerchantRecord;
      res.locals.requestId = 'req-1';
      if (req.path === '/v1/drop') {
        res.locals.fault = { source: 'header', effect: 'commit_then_drop' };
        res.status(201);
        res.socket?.destroy();
        return;
      }
      res.locals.fault = { source: 'rule', rule_id: 'flt_1', effect: 'status' };
      res.status(503).json({ code: 'INTERNAL_ERROR', messages: ['injected'] });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
  }

  it('records the fault the faults middleware applied, and a response dropped before it was written as no response', async () => {
    const journal = new RequestJournal(10);
    const server = await faultyServer(journal);
    try {
      expect((await fetch(`${server.url}/v1/customers`, { method: 'POST' })).status).toBe(503);
      await expect(fetch(`${server.url}/v1/drop`, { method: 'POST' })).rejects.toThrow();
      const entries = await eventually(async () => {
        const listed = journal.list('m', {});
        return listed.length === 2 ? listed : undefined;
      });
      expect(entries).toMatchObject([
        { path: '/v1/customers', status: 503, fault: { source: 'rule', rule_id: 'flt_1', effect: 'status' }, response_body: { code: 'INTERNAL_ERROR' }, request_body: null },
        { path: '/v1/drop', status: NO_RESPONSE_STATUS, fault: { source: 'header', effect: 'commit_then_drop' }, response_body: null },
      ]);
    } finally {
      await server.close();
    }
  });
});
