import type { AppRoute } from '@ts-rest/core';
import { describeIssues, unwrapSchema } from '@switchyard/contract';
import { z, type ZodTypeAny } from 'zod';
import { REQUEST_ID_HEADER, type Exchange } from './recorder.js';

/** Checks named as Schemathesis names them, plus ours. */
export const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'proxy_schema_validation',
  'positive_data_acceptance',
  'negative_data_rejection',
  'maximal_data_acceptance',
  'business_rules',
  'missing_required_header',
  'ignored_auth',
  'unsupported_method',
  'idempotency_replay',
  'idempotency_in_flight',
  'state_transition',
  'amount_invariants',
  'masking',
  'unknown_resource',
  'idempotency_key_format',
  'utc_timestamps',
  'request_id_header',
  'error_messages',
  'latency_budget',
  'webhook_delivery',
] as const;
export type CheckName = (typeof CHECKS)[number];

/** The checks applied to every response of a route. */
export const RESPONSE_CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'utc_timestamps',
  'request_id_header',
  'error_messages',
] as const;
export type ResponseCheck = (typeof RESPONSE_CHECKS)[number];

/** The options of a union, whichever kind. */
function unionOptions(core: ZodTypeAny): ZodTypeAny[] | undefined {
  const options = (core as { options?: ZodTypeAny[] | Map<unknown, ZodTypeAny> }).options;
  if (!(core instanceof z.ZodUnion || core instanceof z.ZodDiscriminatedUnion) || !options) return undefined;
  return options instanceof Map ? [...options.values()] : options;
}

/**
 * Fields of `value` that `schema` does not define, at any depth (`payment_method.detail.card.extra`).
 * zod strips unknown keys when it parses, so a parse alone never sees them.
 */
export function undocumentedFields(schema: ZodTypeAny, value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const { core } = unwrapSchema(schema);
  const at = (key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);
  if (core instanceof z.ZodObject) {
    if (Array.isArray(value)) return [];
    const shape = core.shape as Record<string, ZodTypeAny>;
    const passthrough = core._def.unknownKeys === 'passthrough' || !(core._def.catchall instanceof z.ZodNever);
    return Object.entries(value).flatMap(([k, v]) => (k in shape ? undocumentedFields(shape[k] as ZodTypeAny, v, at(k)) : passthrough ? [] : [at(k)]));
  }
  if (core instanceof z.ZodArray && Array.isArray(value)) return value.flatMap((v, i) => undocumentedFields(core.element as ZodTypeAny, v, at(i)));
  if (core instanceof z.ZodRecord) return Object.entries(value).flatMap(([k, v]) => undocumentedFields(core.valueSchema as ZodTypeAny, v, at(k)));
  const options = unionOptions(core);
  if (options) {
    const matching = options.filter((o) => o.safeParse(value).success);
    // The value is documented when one option that accepts it defines all its fields.
    const results = matching.map((o) => undocumentedFields(o, value, path));
    return results.find((r) => r.length === 0) ?? results[0] ?? [];
  }
  if (core instanceof z.ZodIntersection) {
    const left = new Set(undocumentedFields(core._def.left as ZodTypeAny, value, path));
    return undocumentedFields(core._def.right as ZodTypeAny, value, path).filter((f) => left.has(f));
  }
  return [];
}

/** An ISO 8601 date-time (not a bare date) anywhere in a string value. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** Date-times of a value, at any depth, that are not in UTC with a trailing `Z` (spec §1.3). */
export function nonUtcTimestamps(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return DATE_TIME.test(value) && !/Z$/.test(value) ? [`${path || 'body'}: ${value}`] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => nonUtcTimestamps(v, Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k));
}

/** A violation message, or undefined when the exchange passes the check. */
export function responseViolation(check: ResponseCheck, route: AppRoute, e: Exchange): string | undefined {
  const responses = route.responses as Record<string, unknown>;
  switch (check) {
    case 'not_a_server_error':
      return e.status >= 500 ? `server error ${e.status}` : undefined;
    case 'status_code_conformance':
      return String(e.status) in responses ? undefined : `status ${e.status} is not documented for ${route.method} ${route.path} (documented: ${Object.keys(responses).join(', ')})`;
    case 'content_type_conformance':
      return e.responseText && !(e.contentType ?? '').startsWith('application/json') ? `content-type ${e.contentType ?? 'missing'} is not application/json` : undefined;
    case 'response_schema_conformance': {
      const schema = responses[String(e.status)] as ZodTypeAny | undefined;
      if (!schema || typeof (schema as { safeParse?: unknown }).safeParse !== 'function') return undefined;
      const parsed = schema.safeParse(e.responseBody);
      if (!parsed.success) return describeIssues(parsed.error, 'response').join('; ');
      const extra = undocumentedFields(schema, e.responseBody);
      if (extra.length > 0) return `response: has field(s) the contract does not define: ${extra.slice(0, 5).join(', ')}`;
      return undefined;
    }
    case 'utc_timestamps': {
      const wrong = nonUtcTimestamps(e.responseBody);
      return wrong.length > 0 ? `timestamp(s) not in UTC with a trailing Z (spec §1.3): ${wrong.slice(0, 3).join('; ')}` : undefined;
    }
    case 'request_id_header': {
      const sent = e.requestHeaders[REQUEST_ID_HEADER];
      if (!e.requestId) return `the response has no ${REQUEST_ID_HEADER} header`;
      return sent !== undefined && e.requestId !== sent ? `${REQUEST_ID_HEADER} ${e.requestId} does not echo the one sent (${sent})` : undefined;
    }
    case 'error_messages': {
      if (e.status < 400) return undefined;
      const parsed = ErrorShape.safeParse(e.responseBody);
      if (!parsed.success) return `an error answer (${e.status}) is not in the error shape {code, messages[]}`;
      if (parsed.data.code.trim() === '' || parsed.data.messages.length === 0 || parsed.data.messages.some((m) => m.trim() === '')) return `an error answer (${e.status} ${parsed.data.code}) has an empty code or messages`;
      return undefined;
    }
  }
}

/** Every response check an exchange fails, as `check: message`. */
export function allViolations(route: AppRoute, e: Exchange): string[] {
  return RESPONSE_CHECKS.flatMap((check) => {
    const v = responseViolation(check, route, e);
    return v ? [`${check}: ${v}`] : [];
  });
}

/** The median time of a route's exchanges, judged against a budget: one slow answer on a busy machine is not a slow route. */
export function medianMs(exchanges: readonly Exchange[]): number {
  const sorted = exchanges.map((e) => e.durationMs).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The API's error shape. */
export const ErrorShape = z.object({ code: z.string(), messages: z.array(z.string()) });
