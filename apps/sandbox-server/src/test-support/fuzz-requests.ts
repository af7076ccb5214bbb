import { gzipSync } from 'node:zlib';
import type { AppRoute } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { contract, IDEMPOTENCY_HEADER, listRoutes, PUBLIC_KEY_HEADER, sandboxContract, SECRET_KEY_HEADER, type ListedRoute } from '@switchyard/contract';
import type { Random } from './random.js';
import { sampleOf } from './sample-schema.js';

/** One request of the fuzz suite, and what it tried (printed when an answer is wrong). */
export interface FuzzRequest {
  route: string;
  label: string;
  method: string;
  /** Path and query, already encoded (percent-encoding garbage included on purpose). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Every route of the contract (the /v1 API and the sandbox control API), read from it. */
export const fuzzedRoutes = (): ListedRoute[] => [...Object.values(contract), sandboxContract].flatMap((router) => listRoutes(router));

/** Stands for a JSON number beyond double range (`1e999`, which JSON.parse reads as Infinity) until the text is written. */
const HUGE_NUMBER_TOKEN = '\u0001huge-number\u0001';

/** Values no field should take; each must answer 4xx in the error shape or be stored and echoed intact. */
const HOSTILE_VALUES: ReadonlyArray<() => unknown> = [
  () => 'x'.repeat(100_000),
  () => 'a\u0000b',
  () => '\ud800',
  () => '\udc00tail',
  () => '😀'.repeat(1000),
  () => new Array(50_000).fill(0),
  () => new Array(5_000).fill({ key: 'k', value: 'v' }),
  () => nested(40),
  () => nested(8),
  () => 1e308,
  () => -1e308,
  () => 5e-324,
  () => 2 ** 53 + 1,
  () => -0,
  () => HUGE_NUMBER_TOKEN,
  () => -1,
  () => 0,
  () => 0.00001,
  () => true,
  () => null,
  () => ({}),
  () => [],
  () => '',
  () => ' ',
  () => '2026-02-30',
  () => '9999-12-31T23:59:59.999Z',
  () => '<script>alert(1)</script>',
  () => "'; DROP TABLE payments; --",
  () => JSON.parse('{"__proto__": {"polluted": "yes"}}') as unknown,
  () => ({ constructor: { prototype: { polluted: 'yes' } } }),
  () => ({ prototype: { polluted: 'yes' } }),
];

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Whole bodies that are not what the route takes: broken JSON, other types, hostile shapes. */
const HOSTILE_BODIES: ReadonlyArray<() => string | Buffer> = [
  () => '{',
  () => '{"a":}',
  () => '[1,]',
  () => '{"a":1}garbage',
  () => "{'single': 1}",
  () => 'NaN',
  () => 'null',
  () => '"text"',
  () => '123',
  () => '[]',
  () => '[{}]',
  () => `[${new Array(100_000).fill('0').join(',')}]`,
  () => `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  () => `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
  () => '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}',
  () => Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
  () => Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
  () => '{"a":"\\u0000"}',
  () => '{"a":"\\ud800"}',
  () => '{"a":1e999}',
  () => `{"${'k'.repeat(50_000)}": 1}`,
  () => JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))),
];

/** Path parameter values: well-formed, and the percent-encoding garbage Express cannot decode. */
const HOSTILE_SEGMENTS: readonly string[] = [
  '%', '%f', '%ff', '%zz', '%c3%28', '%e0%80', '%ed%a0%80', '%f8%88%80%80%80', '%00', 'a%00b', '%2F', '%2e%2e', '..',
  '__proto__', 'constructor', 'prototype', '%F0%9F%98%80', '%EF%BF%BD', 'a'.repeat(5000), ' ', '%20', "'", '%27%3B', '-1', '0', '1e999',
];

const QUERY_NOISE: readonly string[] = [
  'limit=1e309', 'limit=-0', 'limit=NaN', 'limit=99999999999999999999', 'limit=0x10', 'limit=%00', 'type=%00', 'type=%ff', 'type=%',
  'resource_id=%ed%a0%80', `type=${'a'.repeat(5000)}`, '__proto__[polluted]=yes', 'constructor[prototype][polluted]=yes',
  'a[b][c][d][e][f][g][h]=1', `${'a[]='.repeat(500)}1`, 'state=%00', 'limit[]=1&limit[]=2', 'limit[x]=1',
];

/** Sets `value` at a random place inside `body` (or returns it in place of the body). */
function plant(body: unknown, value: unknown, random: Random): unknown {
  if (body === null || typeof body !== 'object' || random.chance(0.1)) return value;
  const keys = Object.keys(body);
  const copy: Record<string, unknown> = Array.isArray(body) ? ([...body] as unknown as Record<string, unknown>) : { ...(body as Record<string, unknown>) };
  if (keys.length === 0 || random.chance(0.15)) {
    copy[random.pick(['__proto__', 'constructor', 'prototype', 'unknown_field', '\u0000', 'x'.repeat(1000)])] = value;
    return copy;
  }
  const key = random.pick(keys);
  copy[key] = random.chance(0.6) ? plant(copy[key], value, random) : value;
  return copy;
}

/** The route's schema for a part of the request, when it has one (ts-rest also allows no body, a symbol). */
const schemaOf = (part: unknown): ZodTypeAny | undefined =>
  part !== null && typeof part === 'object' && '_def' in part ? (part as ZodTypeAny) : undefined;

function jsonText(value: unknown): string {
  return JSON.stringify(value).replaceAll(JSON.stringify(HUGE_NUMBER_TOKEN), '1e999');
}

/** Ids of resources that exist, by path parameter name: half of the plausible requests use them, to reach the rules behind the lookup. */
export type KnownIds = Partial<Record<string, readonly string[]>>;

function pathOf(route: AppRoute, random: Random, hostile: boolean, known: KnownIds): string {
  const params = schemaOf(route.pathParams);
  const sampled = (params ? sampleOf(params, random) : {}) as Record<string, unknown>;
  return route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    if (hostile && random.chance(0.7)) return random.pick(HOSTILE_SEGMENTS);
    const ids = known[name];
    return encodeURIComponent(ids && ids.length > 0 && random.chance(0.5) ? random.pick(ids) : String(sampled[name] ?? random.uuid()));
  });
}

function queryOf(route: AppRoute, random: Random, hostile: boolean, accountId: string): string {
  const schema = route.method === 'GET' ? schemaOf(route.query) : undefined;
  const sampled = schema ? (ownAccount(sampleOf(schema, random), accountId) as Record<string, unknown>) : {};
  const parts = Object.entries(sampled).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  if (hostile) parts.push(random.pick(QUERY_NOISE));
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** `value` with every `account_id` set to the merchant's, so requests get past the account check to the rules behind. */
function ownAccount(value: unknown, accountId: string): unknown {
  if (Array.isArray(value)) return value.map((item) => ownAccount(item, accountId));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'account_id' ? accountId : ownAccount(v, accountId)]));
}

/**
 * `count` requests for one route: mostly a plausible request with one hostile change (a field,
 * the whole body, a path parameter, the query or a header), some left plausible so later
 * states are reached.
 */
export function fuzzRequests(
  listed: ListedRoute,
  merchant: { public_api_key: string; private_secret_key: string; account_ids: readonly string[] },
  random: Random,
  count: number,
  known: KnownIds = {},
): FuzzRequest[] {
  const accountId = merchant.account_ids[0] as string;
  const { route, meta } = listed;
  const requests: FuzzRequest[] = [];
  for (let i = 0; i < count; i += 1) {
    const headers: Record<string, string> = { [PUBLIC_KEY_HEADER]: merchant.public_api_key, [SECRET_KEY_HEADER]: merchant.private_secret_key };
    const headerSchema = schemaOf(route.headers);
    const sampledHeaders = (headerSchema ? sampleOf(headerSchema, random) : {}) as Record<string, unknown>;
    if (meta.idempotent) headers[IDEMPOTENCY_HEADER] = String(sampledHeaders[IDEMPOTENCY_HEADER] ?? random.uuid());
    const kind = random.pick(['field', 'field', 'field', 'body', 'path', 'query', 'header', 'plain'] as const);
    const target = pathOf(route, random, kind === 'path', known) + queryOf(route, random, kind === 'query', accountId);
    let label: string = kind;
    let body: Buffer | undefined;
    if (route.method !== 'GET') {
      const bodySchema = 'body' in route ? schemaOf(route.body) : undefined;
      const sampled = bodySchema ? ownAccount(sampleOf(bodySchema, random), accountId) : {};
      let text: string | Buffer = jsonText(sampled ?? {});
      if (kind === 'field') {
        const hostile = random.int(HOSTILE_VALUES.length);
        label = `field, hostile value #${hostile}`;
        text = jsonText(plant(sampled, (HOSTILE_VALUES[hostile] as () => unknown)(), random));
      } else if (kind === 'body') {
        const hostile = random.int(HOSTILE_BODIES.length);
        label = `body #${hostile}`;
        text = (HOSTILE_BODIES[hostile] as () => string | Buffer)();
      }
      body = Buffer.isBuffer(text) ? text : Buffer.from(text);
      headers['content-type'] = 'application/json';
    }
    if (kind === 'header') {
      const variant = random.int(5);
      label = `header #${variant}`;
      if (variant === 0 && meta.idempotent) headers[IDEMPOTENCY_HEADER] = 'k'.repeat(300);
      if (variant === 1) headers['content-type'] = 'application/json; charset=latin1';
      if (variant === 2 && body) {
        headers['content-encoding'] = 'gzip';
        body = random.chance(0.5) ? gzipSync(body) : body;
      }
      if (variant === 3) headers[PUBLIC_KEY_HEADER] = 'ÿ'.repeat(200);
      if (variant === 4) headers[SECRET_KEY_HEADER] = '';
    }
    requests.push({ route: `${route.method} ${route.path}`, label, method: route.method, target, headers, ...(body ? { body } : {}) });
  }
  return requests;
}
