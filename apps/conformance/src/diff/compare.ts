import { contract, listRoutes, unwrapSchema } from '@switchyard/contract';
import { z, type ZodTypeAny } from 'zod';
import type { RecordedExchange, Recording } from '../harness/recording.js';

/** What kind of difference two answers to the same request show. */
export const DIFFERENCE_KINDS = ['status', 'error_code', 'only_in_base', 'only_in_compare', 'type', 'enum', 'format'] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

export interface Difference {
  /** The operationId of the route, or `METHOD /path` for a request no route takes (a PUT on a POST route). */
  operation: string;
  kind: DifferenceKind;
  /** The JSON path in the response body (`amount.value`, `[].name`); empty for the status and the error code. */
  path: string;
  /** What each side answered there: a status, a code, a type, an enum value, a format. */
  base: string;
  compare: string;
  /** How many answers showed it (it is reported once). */
  occurrences: number;
  /** The first pair of exchanges that showed it, to reproduce. */
  example: { base: RecordedExchange; compare: RecordedExchange };
}

export interface DiffReport {
  base: { url: string; profile: string };
  compare: { url: string; profile: string };
  /** Pairs of answers compared. */
  compared: number;
  /** Exchanges whose outcome races on purpose (in-flight duplicates): left out, on either side. */
  racing: number;
  /** Requests one side made and the other did not (a flow that stopped early on one side). */
  unmatched: { base: number; compare: number };
  /** The operations compared, each with how many of its answers were compared and its differences. */
  operations: { operation: string; compared: number; differences: number }[];
  differences: Difference[];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const DATE_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;
/** The suite's unique names (`replay-1-mx0h1wzg-65`: prefix, seed, time, counter) and request ids (`conformance-12`). */
const UNIQUE = /\b[a-z][a-z-]*-\d+-[0-9a-z]{6,}-\d+\b/g;
const REQUEST_ID = /\bconformance-\d+\b/g;
/** Ids with a type prefix (`ent_68vvhjvbis48bngno9n6a9pp`), as some services make them. */
const PREFIXED_ID = /\b[a-z]{2,6}_[0-9a-z]{12,}\b/g;
/** A local address the runner listens on (its webhook receiver): the port is the machine's pick. */
const LOCAL_ORIGIN = /\bhttps?:\/\/(127\.0\.0\.1|localhost):\d+/g;

/** A string with what must differ between two runs (ids, timestamps, generated names, request ids) replaced by placeholders. */
export function normalizeText(s: string): string {
  return s.replace(UUID, '<id>').replace(PREFIXED_ID, '<id>').replace(DATE_TIME, '<date-time>').replace(UNIQUE, '<unique>').replace(REQUEST_ID, '<request-id>').replace(LOCAL_ORIGIN, '<local-origin>');
}

function normalizeValue(value: unknown): unknown {
  if (typeof value === 'string') return normalizeText(value);
  if (Array.isArray(value)) return value.map(normalizeValue);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeValue(v)]));
  return value;
}

const V1_ROUTES = listRoutes(contract).map((r) => ({
  method: r.route.method,
  operationId: r.meta.operationId,
  route: r.route,
  pattern: new RegExp(`^${r.route.path.replace(/:[a-z_]+/g, '[^/]+')}$`),
}));

/** The route an exchange called, by method and path, among the public API's. */
function routeOf(method: string, pathname: string) {
  return V1_ROUTES.find((r) => r.method === method && r.pattern.test(pathname));
}

/** The operation an exchange belongs to: its route's operationId, else its method and path with ids as placeholders. */
export function operationOf(e: Pick<RecordedExchange, 'method' | 'path'>): string {
  const pathname = e.path.split('?')[0] ?? '';
  return routeOf(e.method, pathname)?.operationId ?? `${e.method} ${normalizeText(pathname)}`;
}

/**
 * What makes two requests the same request in two runs: method, path and body with their
 * generated parts normalized, and which of the keys and headers the suite chose to send or leave out.
 */
function requestKey(e: RecordedExchange): string {
  const h = e.requestHeaders;
  const sent = ['public-api-key', 'private-secret-key', 'x-idempotency-key'].map((name) => (h[name] === undefined ? '-' : name === 'x-idempotency-key' && !/^[0-9a-f-]{36}$/i.test(h[name] as string) ? 'other' : '+'));
  // The route's own path template where a route takes it: an id of any shape is then a parameter.
  const [pathname = '', query = ''] = e.path.split('?');
  const route = routeOf(e.method, pathname);
  return `${e.method} ${route ? route.route.path : normalizeText(pathname)}?${normalizeText(query)} ${sent.join('')} ${JSON.stringify(normalizeValue(e.requestBody))}`;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The format of a string, where it has one a client may parse; else undefined (free text, which is data, not shape). */
function formatOf(s: string): string | undefined {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)) return 'uuid';
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(s)) return 'date-time (UTC, Z)';
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s)) return 'date-time (with an offset or none)';
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return 'date';
  return undefined;
}

function unionOptions(core: ZodTypeAny): ZodTypeAny[] {
  const options = (core as unknown as { options: ZodTypeAny[] | Map<unknown, ZodTypeAny> }).options;
  return options instanceof Map ? [...options.values()] : options;
}

/** The schema of the field at `path` in `schema` (objects, arrays, records, the union option that has the field). */
function schemaAt(schema: ZodTypeAny | undefined, path: (string | number)[]): ZodTypeAny | undefined {
  let node = schema;
  for (const part of path) {
    if (!node) return undefined;
    const { core } = unwrapSchema(node);
    if (core instanceof z.ZodObject) node = (core.shape as Record<string, ZodTypeAny>)[String(part)];
    else if (core instanceof z.ZodArray) node = core.element as ZodTypeAny;
    else if (core instanceof z.ZodRecord) node = core.valueSchema as ZodTypeAny;
    else if (core instanceof z.ZodUnion || core instanceof z.ZodDiscriminatedUnion) node = unionOptions(core).map((o) => schemaAt(o, [part])).find(Boolean);
    else return undefined;
  }
  return node;
}

const isEnum = (schema: ZodTypeAny | undefined) => {
  if (!schema) return false;
  const { core } = unwrapSchema(schema);
  return core instanceof z.ZodEnum || core instanceof z.ZodNativeEnum || core instanceof z.ZodLiteral;
};

type Found = Omit<Difference, 'operation' | 'occurrences' | 'example'>;

/** The differences of two response bodies, each at its JSON path (array items as `[]`). */
export function bodyDifferences(base: unknown, compare: unknown, schema: ZodTypeAny | undefined, at: (string | number)[] = [], shown = ''): Found[] {
  const [tb, tc] = [typeOf(base), typeOf(compare)];
  if (tb !== tc) return [{ kind: 'type', path: shown, base: tb, compare: tc }];
  if (tb === 'array') {
    const [a, b] = [base as unknown[], compare as unknown[]];
    return a.slice(0, Math.min(a.length, b.length)).flatMap((item, i) => bodyDifferences(item, b[i], schema, [...at, i], `${shown}[]`));
  }
  if (tb === 'object') {
    const [a, b] = [base as Record<string, unknown>, compare as Record<string, unknown>];
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) => {
      const path = shown ? `${shown}.${k}` : k;
      if (!(k in b)) return [{ kind: 'only_in_base' as const, path, base: typeOf(a[k]), compare: 'absent' }];
      if (!(k in a)) return [{ kind: 'only_in_compare' as const, path, base: 'absent', compare: typeOf(b[k]) }];
      return bodyDifferences(a[k], b[k], schema, [...at, k], path);
    });
  }
  if (tb === 'string') {
    const [a, b] = [base as string, compare as string];
    const [fa, fb] = [formatOf(a), formatOf(b)];
    if ((fa || fb) && a !== '' && b !== '' && fa !== fb) return [{ kind: 'format', path: shown, base: fa ?? 'text', compare: fb ?? 'text' }];
    if (a !== b && isEnum(schemaAt(schema, at))) return [{ kind: 'enum', path: shown, base: a, compare: b }];
  }
  return [];
}

const codeOf = (body: unknown) => (body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'string' ? (body as { code: string }).code : undefined);

/** The differences of two answers to one request: the status, else the error code, else the bodies' shapes. */
export function exchangeDifferences(base: RecordedExchange, compare: RecordedExchange): Found[] {
  if (base.status !== compare.status) return [{ kind: 'status', path: '', base: String(base.status), compare: String(compare.status) }];
  const [cb, cc] = [codeOf(base.responseBody), codeOf(compare.responseBody)];
  if (base.status >= 400 && cb !== cc) return [{ kind: 'error_code', path: '', base: cb ?? 'none', compare: cc ?? 'none' }];
  const route = routeOf(base.method, base.path.split('?')[0] ?? '')?.route;
  const schema = (route?.responses as Record<string, ZodTypeAny> | undefined)?.[String(base.status)];
  return bodyDifferences(base.responseBody, compare.responseBody, schema && typeof schema.safeParse === 'function' ? schema : undefined);
}

const isPublicApi = (e: RecordedExchange) => e.path.startsWith('/v1/');

/**
 * Compares two runs of the same suite, request by request: each request of one run is paired
 * with the same request of the other (requestKey, in order), and each difference is reported once
 * per operation, kind and path, with how often it showed and a pair to reproduce it. The control
 * API, which a staging does not have, is left out, and so are requests that race on purpose.
 */
export function compareRecordings(base: Recording, compare: Recording): DiffReport {
  const racing = [...base.exchanges, ...compare.exchanges].filter((e) => isPublicApi(e) && e.concurrent).length;
  const usable = (r: Recording) => r.exchanges.filter((e) => isPublicApi(e) && !e.concurrent);
  const waiting = new Map<string, RecordedExchange[]>();
  for (const e of usable(compare)) waiting.set(requestKey(e), [...(waiting.get(requestKey(e)) ?? []), e]);
  const found = new Map<string, Difference>();
  const perOperation = new Map<string, { compared: number; keys: Set<string> }>();
  let compared = 0;
  let unmatchedBase = 0;
  for (const b of usable(base)) {
    const c = waiting.get(requestKey(b))?.shift();
    if (!c) {
      unmatchedBase += 1;
      continue;
    }
    compared += 1;
    const operation = operationOf(b);
    const op = perOperation.get(operation) ?? { compared: 0, keys: new Set<string>() };
    op.compared += 1;
    perOperation.set(operation, op);
    for (const d of exchangeDifferences(b, c)) {
      const key = `${operation}|${d.kind}|${d.path}`;
      const seen = found.get(key);
      if (seen) seen.occurrences += 1;
      else found.set(key, { operation, ...d, occurrences: 1, example: { base: b, compare: c } });
      op.keys.add(key);
    }
  }
  return {
    base: { url: base.baseUrl, profile: base.profile },
    compare: { url: compare.baseUrl, profile: compare.profile },
    compared,
    racing,
    unmatched: { base: unmatchedBase, compare: [...waiting.values()].reduce((n, list) => n + list.length, 0) },
    operations: [...perOperation].map(([operation, o]) => ({ operation, compared: o.compared, differences: o.keys.size })).sort((a, b) => a.operation.localeCompare(b.operation)),
    differences: [...found.values()].sort((a, b) => a.operation.localeCompare(b.operation) || a.kind.localeCompare(b.kind) || a.path.localeCompare(b.path)),
  };
}
