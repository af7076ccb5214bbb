import { z } from 'zod';
import { DateTime, refuse, text } from '../shared/primitives.js';
import { listOf } from '../validation.js';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { contract } from '../api.js';
import { listRoutes } from '../routes-list.js';
import { SeededChanceFields, StoredSeededChanceFields } from './seeded-chance.js';

/**
 * Fault injection (docs/faults.md): per-merchant rules under `/sandbox/faults`, and the one-off
 * `x-sandbox-fault` request header. Control routes (`/sandbox/*`) are never faulted, so a test can
 * always list and clear its rules.
 */

/** The request header asking for a one-off fault; its values are fixed (`SANDBOX_FAULT_HEADER_FORMS`). */
export const SANDBOX_FAULT_HEADER = 'x-sandbox-fault';

/** What `x-sandbox-fault` accepts, for messages and docs. */
export const SANDBOX_FAULT_HEADER_FORMS = ['commit-then-drop', 'reset', 'status=503 (any 4xx/5xx, optionally ;retry-after=2)', 'latency=1500ms'] as const;

/**
 * The longest injected latency (and the cap a log-normal sample is clipped to). It runs before the
 * body is read, so it stays well under the sandbox's 30 s request time-out (docs/faults.md).
 */
export const MAX_FAULT_LATENCY_MS = 20_000;
/** How long a stalled response holds its socket at most before the sandbox destroys it. */
export const MAX_FAULT_STALL_MS = 30_000;
/** A stall without `ms` holds the socket this long. */
export const DEFAULT_FAULT_STALL_MS = 10_000;
/** The most rules a merchant can hold; creating one more is a 400. */
export const MAX_FAULT_RULES = 50;
/** The most `Retry-After` a status effect can ask for, in seconds. */
export const MAX_FAULT_RETRY_AFTER_SECONDS = 3600;

const Ms = z.number().int().min(0).max(MAX_FAULT_LATENCY_MS);
const RetryAfterSeconds = z.number().int().min(0).max(MAX_FAULT_RETRY_AFTER_SECONDS);
/** An error status a fault can answer with. */
export const FaultStatus = z.number().int().min(400).max(599);

/** The operationIds a rule can name: the `/v1` API's (the contract lists them, so a rule naming another is refused as invalid input). */
export const FAULTABLE_OPERATION_IDS = listRoutes(contract).map((r) => r.meta.operationId) as [string, ...string[]];

/**
 * What a rule naming another operationId is told: the 28 names are too many for one message, and
 * a caller naming a control route (`getClock`) needs to hear why it is refused.
 */
const FAULTABLE_OPERATION_ID_MESSAGE = 'must be the operationId of a /v1 route, as GET /openapi.json lists them; control routes under /sandbox cannot be faulted';

export const FAULT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Which requests a rule applies to; every field given must match (an empty match takes every `/v1` request). */
export const FaultMatch = z
  .object({
    /** The operationId of a `/v1` route, as in the contract and openapi.json (e.g. `createCustomer`); control routes are never faulted. */
    operation_id: z.enum(FAULTABLE_OPERATION_IDS, { message: FAULTABLE_OPERATION_ID_MESSAGE }).optional(),
    method: z.enum(FAULT_METHODS).optional(),
    /** The request path; `*` matches within one segment, a `**` segment any number of segments (`/v1/payments/*`, `/v1/**`). */
    path: text(1, 200).regex(/^\//, 'must start with /').optional(),
    /** A request header that must have exactly this value (the name is case-insensitive). */
    header: z.object({ name: text(1, 100).regex(/^[A-Za-z0-9-]+$/, 'must be a header name'), value: text(0, 200) }).strict().optional(),
  })
  .strict();
export type FaultMatch = z.infer<typeof FaultMatch>;

/**
 * Delay before the request is processed: `ms` (fixed), `min_ms`/`max_ms` (uniform), or
 * `median_ms`/`p99_ms` (log-normal, clipped at MAX_FAULT_LATENCY_MS); exactly one form.
 */
export const LatencyEffect = z
  .object({
    type: z.literal('latency'),
    ms: Ms.optional(),
    min_ms: Ms.optional(),
    max_ms: Ms.optional(),
    median_ms: Ms.min(1).optional(),
    p99_ms: Ms.min(1).optional(),
  })
  .strict();

/** An error response instead of processing, in the API's error shape. */
export const StatusEffect = z
  .object({
    type: z.literal('status'),
    status: FaultStatus,
    /** One of the API's codes; default: the API's code for the status (INTERNAL_ERROR for 5xx, TOO_MANY_REQUESTS for 429, ...). */
    code: z.enum(Object.values(ERROR_CODES).flat() as [ErrorCode, ...ErrorCode[]]).optional(),
    messages: listOf(text(1, 200), 5).optional(),
    /** Seconds, sent as `Retry-After`. */
    retry_after: RetryAfterSeconds.optional(),
  })
  .strict();

/** The connection is destroyed before the request is processed. */
export const ResetEffect = z.object({ type: z.literal('reset') }).strict();

/** The request is processed, its headers are written, then the body never comes; the socket is destroyed after `ms`. */
export const StallEffect = z.object({ type: z.literal('stall'), ms: z.number().int().min(1).max(MAX_FAULT_STALL_MS).optional() }).strict();

/** The operation runs and commits, then the connection is destroyed before any response byte (a replay is answered). */
export const CommitThenDropEffect = z.object({ type: z.literal('commit_then_drop') }).strict();

/** A token bucket: `capacity` requests at once, refilled at `refill_per_second`; an empty bucket answers 429. */
export const RateLimitEffect = z
  .object({
    type: z.literal('rate_limit'),
    capacity: z.number().int().min(1).max(10_000),
    refill_per_second: z.number().min(0.001).max(10_000),
    /** One bucket per operationId instead of one for every request the rule matches. */
    per_route: z.boolean().optional(),
  })
  .strict();

export const FaultEffect = z.discriminatedUnion('type', [LatencyEffect, StatusEffect, ResetEffect, StallEffect, CommitThenDropEffect, RateLimitEffect]);
export type FaultEffect = z.infer<typeof FaultEffect>;
export type FaultEffectType = FaultEffect['type'];

/** A latency effect names exactly one of its three forms, each complete and ordered. */
function checkLatency(effect: FaultEffect, ctx: z.RefinementCtx): void {
  if (effect.type !== 'latency') return;
  const forms = [effect.ms !== undefined, effect.min_ms !== undefined || effect.max_ms !== undefined, effect.median_ms !== undefined || effect.p99_ms !== undefined];
  if (forms.filter(Boolean).length !== 1) {
    refuse(ctx, ['effect'], 'a latency effect takes exactly one of ms, min_ms with max_ms, or median_ms with p99_ms');
    return;
  }
  if (forms[1] && (effect.min_ms === undefined || effect.max_ms === undefined || effect.min_ms > effect.max_ms)) {
    refuse(ctx, ['effect', 'max_ms'], 'min_ms and max_ms are both required, with min_ms <= max_ms');
  }
  if (forms[2] && (effect.median_ms === undefined || effect.p99_ms === undefined || effect.median_ms > effect.p99_ms)) {
    refuse(ctx, ['effect', 'p99_ms'], 'median_ms and p99_ms are both required, with median_ms <= p99_ms');
  }
}

export const CreateFaultRuleBody = z
  .object({
    match: FaultMatch,
    effect: FaultEffect,
    ...SeededChanceFields,
    /** Fault only the next N matching requests (after `after`), then the rule is spent. */
    times: z.number().int().min(1).max(10_000).optional(),
    /** Let the first N matching requests through untouched. */
    after: z.number().int().min(0).max(10_000).optional(),
  })
  .strict()
  .superRefine((body, ctx) => checkLatency(body.effect, ctx));
export type CreateFaultRuleBody = z.infer<typeof CreateFaultRuleBody>;

/** A stored rule, with how many requests it matched and faulted so far. */
export const FaultRule = z.object({
  id: z.string(),
  match: FaultMatch,
  effect: FaultEffect,
  ...StoredSeededChanceFields,
  after: z.number().int(),
  /** Requests the rule matched (whether or not it fired). */
  matched: z.number().int().min(0),
  /** Requests it faulted (for rate_limit: requests answered 429). */
  fired: z.number().int().min(0),
  created_at: DateTime,
});
export type FaultRule = z.infer<typeof FaultRule>;

export const FaultRuleParams = z.object({ fault_id: text(1, 64) });
export const ClearFaultRulesResult = z.object({ deleted: z.number().int().min(0) });
