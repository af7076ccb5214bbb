import type { AppRoute } from '@ts-rest/core';
import { describeIssues, unwrapSchema } from '@switchyard/contract';
import { z, type ZodTypeAny } from 'zod';
import type { Exchange } from './recorder.js';

/** Checks named as Schemathesis names them, plus ours. */
export const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'positive_data_acceptance',
  'negative_data_rejection',
  'missing_required_header',
  'ignored_auth',
  'unsupported_method',
  'idempotency_replay',
  'idempotency_in_flight',
  'state_transition',
  'amount_invariants',
  'masking',
] as const;
export type CheckName = (typeof CHECKS)[number];

/** The checks applied to every response of a route. */
export const RESPONSE_CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'] as const;

function unwrapObject(schema: ZodTypeAny): z.AnyZodObject | undefined {
  const { core } = unwrapSchema(schema);
  return core instanceof z.ZodObject ? core : undefined;
}

/** A violation message, or undefined when the exchange passes the check. */
export function responseViolation(check: (typeof RESPONSE_CHECKS)[number], route: AppRoute, e: Exchange): string | undefined {
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
      const object = unwrapObject(schema);
      if (object && e.responseBody && typeof e.responseBody === 'object' && !Array.isArray(e.responseBody)) {
        const extra = Object.keys(e.responseBody).filter((k) => !(k in object.shape));
        if (extra.length > 0) return `response: has field(s) the contract does not define: ${extra.join(', ')}`;
      }
      return undefined;
    }
  }
}

/** The API's error shape. */
export const ErrorShape = z.object({ code: z.string(), messages: z.array(z.string()) });
