import { bodyFieldCodeOf, ERROR_CODES, STATUS_OF, type ErrorCode, type RouteMeta } from '@switchyard/contract';
import type { AppRoute } from '@ts-rest/core';
import type { Exchange } from './recorder.js';

/**
 * The exact answer a negative case must get: its status and the error codes allowed for it,
 * derived from the contract's error table (STATUS_OF) and the route's documented responses, so a
 * 404 family answered 400 (documented on every route) fails.
 */
export interface Expected {
  status: number;
  codes: readonly string[];
  /** What the case is, for the failure message. */
  what: string;
}

const codesOf = (family: readonly string[], status: number) => family.filter((c) => STATUS_OF[c as ErrorCode] === status);

/**
 * Bad input: 400 with a validation code of the route's family. A family that has its own
 * validation code (the banking family's VALIDATION_ERROR) answers with it; the others with the
 * request family's codes.
 */
export function invalidInput(meta: RouteMeta, fields: readonly string[] = []): Expected {
  // A body field the contract gives its own code (`bodyFieldCodes`, e.g. webhook triggers →
  // WEBHOOK_INVALID_TRIGGER) is refused with that code when it is the invalid one.
  const fieldCodes = new Set(fields.map((f) => bodyFieldCodeOf(meta, f.split(/[.[\]]+/).filter(Boolean))));
  const [fieldCode] = fieldCodes;
  if (fieldCodes.size === 1 && fieldCode) return { status: 400, codes: [fieldCode], what: 'invalid input' };
  // A route whose contract names its family's validation code (webhooks: WEBHOOK_INVALID_REQUEST) answers with it.
  if (meta.validationCode) return { status: 400, codes: [meta.validationCode], what: 'invalid input' };
  const own = ERROR_CODES[meta.domain as keyof typeof ERROR_CODES] as readonly string[] | undefined;
  const codes = own?.includes('VALIDATION_ERROR') ? ['VALIDATION_ERROR'] : ['INVALID_REQUEST', 'MISSING_PARAMETERS', 'INVALID_PARAMETERS'];
  return { status: 400, codes, what: 'invalid input' };
}

/**
 * A missing idempotency key: 400 MISSING_PARAMETERS, or the family's own validation code where it
 * has one (banking's VALIDATION_ERROR, the code its non-UUID key gets too: upstream's
 * Create Entity (Banking Connectivity) documents no other 400 code; docs/conformance.md, "Decisions").
 */
export function missingKey(meta: RouteMeta): Expected {
  const own = invalidInput(meta).codes;
  return { status: 400, codes: own.includes('VALIDATION_ERROR') ? ['VALIDATION_ERROR'] : ['MISSING_PARAMETERS'], what: 'a missing idempotency key' };
}

/** A business rule of the spec refused with the contract's code for it, at the status the contract gives that code. */
export const ruleRefusal = (code: ErrorCode, what: string): Expected => ({ status: STATUS_OF[code], codes: [code], what });

/**
 * Missing or wrong keys: 401 with an auth code. Missing keys get the route's own code where its
 * contract names one (webhooks: NOT_AUTHENTICATED, upstream's Manage Webhooks operation), wrong keys
 * INVALID_CREDENTIALS (or EXPIRED_CREDENTIALS) everywhere.
 */
export function unauthenticated(meta: Pick<RouteMeta, 'missingKeysCode'>, keys: 'missing' | 'wrong'): Expected {
  if (keys === 'missing' && meta.missingKeysCode) return { status: 401, codes: [meta.missingKeysCode], what: 'no API keys' };
  return { status: 401, codes: codesOf(ERROR_CODES.auth, 401), what: keys === 'missing' ? 'no API keys' : 'wrong API keys' };
}

/** A method the path does not take: 405 UNSUPPORTED_METHOD. */
export const unsupportedMethod: Expected = { status: 405, codes: ['UNSUPPORTED_METHOD'], what: 'unsupported method' };

/**
 * An id that names nothing: 404 where the route documents a 404 (transfers, banking, webhooks),
 * else 400 (the core payment family answers its "not found" codes with 400); in both cases a
 * `*NOT_FOUND` code whose status in the contract is that status.
 */
export function unknownResource(route: AppRoute): Expected {
  const status = '404' in (route.responses as Record<string, unknown>) ? 404 : 400;
  const all = Object.values(ERROR_CODES).flat() as string[];
  return { status, codes: codesOf(all, status).filter((c) => c.endsWith('NOT_FOUND')), what: 'an unknown id' };
}

/** Why an exchange is not the expected answer, or undefined when it is. */
export function mismatch(e: Pick<Exchange, 'status' | 'responseBody'>, expected: Expected): string | undefined {
  const body = e.responseBody as { code?: unknown; messages?: unknown; http_code?: unknown } | null;
  const code = body && typeof body === 'object' ? body.code : undefined;
  if (e.status !== expected.status) return `${expected.what} answered ${e.status}${typeof code === 'string' ? ` ${code}` : ''}, expected ${expected.status} ${expected.codes.join(' or ')}`;
  if (typeof code !== 'string' || !expected.codes.includes(code)) return `${expected.what} answered code ${JSON.stringify(code)}, expected ${expected.codes.join(' or ')}`;
  if (body?.http_code !== undefined && body.http_code !== e.status) return `${expected.what}: http_code ${JSON.stringify(body.http_code)} differs from the status ${e.status}`;
  const messages = body?.messages;
  if (!Array.isArray(messages) || messages.length === 0 || messages.some((m) => typeof m !== 'string' || m.trim() === '')) return `${expected.what}: the error's messages are empty`;
  return undefined;
}
