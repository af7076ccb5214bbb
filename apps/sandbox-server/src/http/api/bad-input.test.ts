import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, MAX_ERROR_MESSAGES, type SandboxMerchant } from '@switchyard/contract';
import { keysOf, newMerchant, raw, startSandbox, type RunningSandbox } from '../../test-support/harness.js';
import { sandboxOn, storesUnderTest } from '../../test-support/stores.js';
import { MAX_JSON_DEPTH, MAX_JSON_TOKENS } from './json-body.js';

/**
 * Through real HTTP, on each store: bad input of every kind answers
 * 400 in the error shape (`{code, messages}`, docs/sandbox-errors.md "Bad input"), bounded, naming the field.
 */
describe.each(storesUnderTest('bad-input.test.ts'))('bad input on the $name store', (store) => {
  const sb = sandboxOn(store);
  let merchant: SandboxMerchant;
  beforeAll(async () => {
    merchant = await newMerchant(sb.url);
  });

  const send = (path: string, init: { method?: string; body?: BodyInit; headers?: Record<string, string> } = {}) =>
    raw(sb.url, path, { ...init, headers: { ...keysOf(merchant), 'content-type': 'application/json', ...init.headers } });
  let n = 0;
  const customerId = () => `bad-input-${process.pid}-${(n += 1)}`;

  describe('bounded validation answers', () => {
    it('answers a 5 MB metadata array with one message, at once (refused before parsing: too many values)', async () => {
      const body = `{"merchant_customer_id":"${customerId()}","metadata":[${new Array(2_500_000).fill('0').join(',')}]}`;
      const res = await fetch(`${sb.url}/v1/customers`, { method: 'POST', headers: { ...keysOf(merchant), 'content-type': 'application/json' }, body });
      const text = await res.text();
      expect(res.status).toBe(413);
      expect(JSON.parse(text)).toEqual({ code: 'REQUEST_TOO_LARGE', messages: [expect.stringContaining(`more than ${MAX_JSON_TOKENS} JSON values`)] });
    });

    it('answers a metadata array past its item bound but within the parse bound with the validation message', async () => {
      const body = `{"merchant_customer_id":"${customerId()}","metadata":[${new Array(100_000).fill('0').join(',')}]}`;
      const res = await fetch(`${sb.url}/v1/customers`, { method: 'POST', headers: { ...keysOf(merchant), 'content-type': 'application/json' }, body });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: 'INVALID_REQUEST', messages: ['body.metadata: must have at most 50 item(s)'] });
    });

    it('lists at most MAX_ERROR_MESSAGES problems and counts the rest', async () => {
      const res = await send('/v1/customers', { method: 'POST', body: JSON.stringify({ merchant_customer_id: customerId(), metadata: new Array(50).fill(0) }) });
      expect(res.status).toBe(400);
      const { messages } = ApiError.parse(res.body);
      expect(messages).toHaveLength(MAX_ERROR_MESSAGES + 1);
      expect(messages[0]).toBe('body.metadata[0]: must be object, received number');
      expect(messages.at(-1)).toBe(`and ${50 - MAX_ERROR_MESSAGES} more problem(s) not listed`);
    });

    it(`refuses bodies nested more than ${MAX_JSON_DEPTH} deep`, async () => {
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const res = await send('/v1/customers', { method: 'POST', body: `{"merchant_customer_id":"${customerId()}","metadata":${deep}}` });
      expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [`the request body nests objects and arrays more than ${MAX_JSON_DEPTH} deep`] } });
      const shallow = { merchant_customer_id: customerId(), metadata: [{ key: 'k', value: 'v' }] };
      expect((await send('/v1/customers', { method: 'POST', body: JSON.stringify(shallow) })).status).toBe(201);
    });
  });

  describe('path parameters', () => {
    it('answers malformed percent-encoding 400, naming the parameter', async () => {
      for (const path of ['/v1/payments/%ff', '/v1/payments/%', '/v1/payments/%e0%80', '/v1/customers/%ed%a0%80']) {
        const res = await send(path);
        expect(res.status, path).toBe(400);
        expect(ApiError.parse(res.body).messages[0], path).toMatch(/^path\.(payment_id|customer_id): is not valid percent-encoded UTF-8$/);
      }
    });

    it('answers VALIDATION_ERROR with http_code on the banking family', async () => {
      expect(await send('/v1/banking/entities/%c3%28/onboardings/x')).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR', http_code: 400, messages: ['path.entity_id: is not valid percent-encoded UTF-8'] },
      });
    });

    it('answers 400 on the hosted checkout page too, as a page (docs/checkout.md: every error is a page)', async () => {
      const page = await fetch(`${sb.url}/checkout/links/%ff`);
      expect([page.status, page.headers.get('content-type')]).toEqual([400, 'text/html; charset=utf-8']);
      expect(await page.text()).toContain('not valid percent-encoded UTF-8');
      expect((await raw(sb.url, '/checkout/links/%00')).status).toBe(404);
    });
  });

  describe('text no store can keep', () => {
    it('refuses U+0000 in a body field, a key, a path parameter or the query, naming each', async () => {
      const cases: Array<[string, { method?: string; body?: string }, string]> = [
        ['/v1/customers', { method: 'POST', body: JSON.stringify({ merchant_customer_id: `a\u0000${customerId()}` }) }, 'body.merchant_customer_id'],
        ['/v1/customers', { method: 'POST', body: JSON.stringify({ merchant_customer_id: customerId(), metadata: [{ key: 'k', value: 'v\u0000' }] }) }, 'body.metadata[0].value'],
        ['/v1/customers', { method: 'POST', body: JSON.stringify({ merchant_customer_id: customerId(), 'a\u0000b': 1 }) }, 'body.a?b'],
        ['/v1/customers/abc%00def', {}, 'path.customer_id'],
        ['/sandbox/events?type=%00', {}, 'query.type'],
      ];
      for (const [path, init, field] of cases) {
        expect(await send(path, init), field).toMatchObject({
          status: 400,
          body: { code: 'INVALID_REQUEST', messages: [`${field}: contains U+0000 or an unpaired surrogate, which cannot be stored`] },
        });
      }
    });

    it('refuses unpaired surrogates, and keeps paired ones', async () => {
      const lone = await send('/v1/customers', { method: 'POST', body: `{"merchant_customer_id":"${customerId()}","first_name":"Ada \\ud800"}` });
      expect(lone).toMatchObject({ status: 400, body: { messages: ['body.first_name: contains U+0000 or an unpaired surrogate, which cannot be stored'] } });
      const paired = await send('/v1/customers', { method: 'POST', body: JSON.stringify({ merchant_customer_id: customerId(), first_name: 'Ada 😀' }) });
      expect(paired).toMatchObject({ status: 201, body: { first_name: 'Ada 😀' } });
    });

    it('refuses a body that is not UTF-8', async () => {
      const body = Buffer.concat([Buffer.from(`{"merchant_customer_id":"${customerId()}","first_name":"`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
      expect(await send('/v1/customers', { method: 'POST', body })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: ['the request body is not valid UTF-8'] } });
    });

    it('calls a body it cannot read VALIDATION_ERROR, with http_code, on the banking family, as its other bad input', async () => {
      // docs/sandbox-errors.md, "Errors": the banking family's name for bad input (validationProblem).
      const cases: Array<[BodyInit, string]> = [
        [Buffer.from([0x7b, 0xff, 0x7d]), 'the request body is not valid UTF-8'],
        ['['.repeat(MAX_JSON_DEPTH + 1), `the request body nests objects and arrays more than ${MAX_JSON_DEPTH} deep`],
        ['{"name":', 'the request body is not valid JSON'],
      ];
      for (const [body, message] of cases) {
        expect(await send('/v1/banking/accounts/acc-1', { method: 'PATCH', body }), message).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', http_code: 400, messages: [message] } });
      }
    });
  });
});

describe('time-outs on the sandbox', () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ httpTimeouts: { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 5000 } });
  });
  afterAll(() => sb.stop());

  it('answers a trickled body 408 while the API is reading it, and keeps serving', async () => {
    const socket = connect(Number(new URL(sb.url).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += String(chunk)));
    const keys = Object.entries(keysOf({ public_api_key: 'sandbox_pk_demo_switchyard', private_secret_key: 'sandbox_sk_demo_switchyard' }))
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`POST /v1/customers HTTP/1.1\r\nhost: x\r\n${keys}content-type: application/json\r\ncontent-length: 100\r\n\r\n{`);
    const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
    await new Promise((resolve) => socket.on('close', resolve));
    clearInterval(trickle);
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*\r\n\r\n\{"code":"REQUEST_TIMEOUT","messages":\[".+"\]\}$/);
    expect((await raw(sb.url, '/health')).body).toEqual({ status: 'ok' });
  });
});
