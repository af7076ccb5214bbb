import { request } from 'node:http';
import { gzipSync, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../../app/sandbox.js';
import { keysOf, raw, startSandbox, type RunningSandbox } from '../../test-support/harness.js';
import { costlyJson, MAX_JSON_TOKENS } from './json-body.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ bodyLimit: '4kb' });
});
afterAll(() => sb.stop());

const keys = keysOf(DEMO_MERCHANT);
let n = 0;
const customer = () => ({ merchant_customer_id: `body-${process.pid}-${(n += 1)}`, first_name: 'Ada' });
const post = (body: BodyInit, headers: Record<string, string>) => raw(sb.url, '/v1/customers', { method: 'POST', headers: { ...keys, ...headers }, body });

/** A POST sent chunked (no content-length), so the limit can only be found while reading. */
function postChunked(chunks: Buffer[], headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${sb.url}/v1/customers`, { method: 'POST', headers: { ...keys, ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += String(c)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('JSON request bodies', () => {
  it('reads application/json and application/*+json, with a UTF-8 charset or a byte-order mark', async () => {
    expect((await post(JSON.stringify(customer()), { 'content-type': 'application/json; charset=UTF-8' })).status).toBe(201);
    expect((await post(JSON.stringify(customer()), { 'content-type': 'application/vnd.merchant+json' })).status).toBe(201);
    const withBom = await post(`\uFEFF${JSON.stringify(customer())}`, { 'content-type': 'application/json' });
    expect(withBom).toMatchObject({ status: 201, body: { first_name: 'Ada' } });
  });

  it('reads gzip and deflate bodies', async () => {
    const gz = await post(gzipSync(JSON.stringify(customer())), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(gz).toMatchObject({ status: 201, body: { first_name: 'Ada' } });
    const deflated = await post(deflateSync(JSON.stringify(customer())), { 'content-type': 'application/json', 'content-encoding': 'deflate' });
    expect(deflated.status).toBe(201);
  });

  it('answers 400 for an unknown encoding, a broken gzip stream or another charset', async () => {
    expect(await post('{}', { 'content-type': 'application/json', 'content-encoding': 'br' })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [expect.stringContaining('"br"')] } });
    expect(await post('not gzip at all', { 'content-type': 'application/json', 'content-encoding': 'gzip' })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
    expect(await post('{}', { 'content-type': 'application/json; charset=latin1' })).toMatchObject({ status: 400, body: { messages: [expect.stringContaining('latin1')] } });
  });

  it('calls only text that is not JSON "not valid JSON"', async () => {
    for (const body of ['{"a":', 'hi', "'hi'", '   ', '{"a":1}garbage']) {
      expect(await post(body, { 'content-type': 'application/json' }), body).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: ['the request body is not valid JSON'] } });
    }
  });

  it('reads JSON that is not an object, and lets the contract name it, as it names an array', async () => {
    const cases = [
      ['"hi"', 'string'],
      ['null', 'null'],
      ['1', 'number'],
      ['true', 'boolean'],
      [' "hi" ', 'string'],
      ['[1,2]', 'array'],
    ] as const;
    for (const [body, type] of cases) {
      expect(await post(body, { 'content-type': 'application/json' }), body).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [`body: must be object, received ${type}`] } });
    }
  });

  it('calls a bare value VALIDATION_ERROR on the banking family, as its other bad input', async () => {
    const res = await raw(sb.url, `/v1/banking/accounts/${'a'.repeat(36)}`, { method: 'PATCH', headers: { ...keys, 'content-type': 'application/json' }, body: 'null' });
    expect(res).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', http_code: 400, messages: ['body: must be object, received null'] } });
  });

  it('treats an empty body, or one in another media type, as {} so the contract names what is missing', async () => {
    for (const [body, type] of [['', 'application/json'], [JSON.stringify(customer()), 'text/plain']] as const) {
      expect(await post(body, { 'content-type': type })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: ['body.merchant_customer_id: is required'] } });
    }
  });

  it('answers 413 past the limit, declared or found while reading, compressed or not, naming the limit and its setting', async () => {
    const tooLarge = { code: 'REQUEST_TOO_LARGE', messages: ['the request body is larger than the 4 KB (4096 bytes) the sandbox accepts; SANDBOX_BODY_LIMIT raises the limit'] };
    const big = JSON.stringify({ ...customer(), first_name: 'x'.repeat(5000) });
    expect(await post(big, { 'content-type': 'application/json' })).toMatchObject({ status: 413, body: tooLarge });
    const halves = [Buffer.from(big.slice(0, 2500)), Buffer.from(big.slice(2500))];
    expect(await postChunked(halves, { 'content-type': 'application/json' })).toMatchObject({ status: 413, body: tooLarge });
    // 5 kB that gzip to a few dozen bytes: the limit applies to what the body inflates to.
    expect(await post(gzipSync(big), { 'content-type': 'application/json', 'content-encoding': 'gzip' })).toMatchObject({ status: 413, body: tooLarge });
  });

  it('still serves the connection after a rejected body', async () => {
    expect((await post(JSON.stringify(customer()), { 'content-type': 'application/json' })).status).toBe(201);
  });
});

describe('costlyJson', () => {
  it('counts objects and arrays, not brackets inside strings or escaped quotes', () => {
    expect(costlyJson('{"a":[{"b":[]}]}', 4, 1000)).toBeUndefined();
    expect(costlyJson('{"a":[{"b":[]}]}', 3, 1000)).toBe('deep');
    expect(costlyJson('{"a":"[[[[[[{{{{"}', 1, 1000)).toBeUndefined();
    expect(costlyJson('{"a":"\\"[[[[","b":1}', 1, 1000)).toBeUndefined();
    expect(costlyJson('{"a":"\\\\","b":[[]]}', 2, 1000)).toBe('deep');
  });

  it('counts brackets and commas outside strings, and refuses past the bound', () => {
    expect(costlyJson('[{},{},{}]', 32, 6)).toBeUndefined();
    expect(costlyJson('[{},{},{},{}]', 32, 6)).toBe('many');
    expect(costlyJson('{"a":",,,,,,,,"}', 32, 1)).toBeUndefined();
  });

  it('parses a body at the bound of values well within one event-loop turn, and finds one far past it in one linear pass', () => {
    // n objects in an array: 1 + n brackets and n - 1 commas.
    const atBound = `[${Array.from({ length: MAX_JSON_TOKENS / 2 }, () => '{}').join(',')}]`;
    expect(costlyJson(atBound, 32, MAX_JSON_TOKENS)).toBeUndefined();
    const started = performance.now();
    JSON.parse(atBound);
    const parseMs = performance.now() - started;
    const flood = `{"m":[${Array.from({ length: 1_900_000 }, () => '{}').join(',')}]}`;
    const scanStarted = performance.now();
    expect(costlyJson(flood, 32, MAX_JSON_TOKENS)).toBe('many');
    const scanMs = performance.now() - scanStarted;
    console.info(`JSON.parse of ${MAX_JSON_TOKENS / 2} objects (the bound): ${parseMs.toFixed(1)} ms; the scan refusing 1.9 million {}: ${scanMs.toFixed(1)} ms`);
    // Generous bounds for a loaded machine: the flood itself took 3.5 s to parse here.
    expect(parseMs).toBeLessThan(5_000);
    expect(scanMs).toBeLessThan(5_000);
  });
});
