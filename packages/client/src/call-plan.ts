import type { ApiFetcherArgs } from '@ts-rest/core';
import { IDEMPOTENCY_HEADER, type RouteMeta } from '@switchyard/contract';
import { cleanHeaders } from './headers.js';
import { newIdempotencyKey } from './idempotency.js';
import { DEFAULT_TIMEOUT_MS, type CallOptions, type ClientOptions } from './options.js';
import type { RetryPolicy } from './retry.js';

/** Everything a call keeps the same across its attempts. */
export interface CallPlan {
  /** The request headers, the idempotency key included when there is one. */
  headers: Record<string, string>;
  idempotencyKey: string | undefined;
  policy: RetryPolicy;
  /**
   * Whether the request may run twice: false for a POST without an idempotency key, which is
   * then retried only after a 429 (a refused request was not processed).
   */
  repeatable: boolean;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** The path without the base URL, for hooks and messages; `args.path` is the full URL. */
  path: string;
}

/**
 * The plan of one call: its idempotency key (made once per call on an idempotent route, so
 * every retry carries the same one), how often it may be retried, and its time-out.
 */
export function planCall(args: ApiFetcherArgs & CallOptions, basePolicy: RetryPolicy, options: Pick<ClientOptions, 'timeoutMs'>, newKey: () => string = newIdempotencyKey): CallPlan {
  const meta = args.route.metadata as RouteMeta | undefined;
  const headers = cleanHeaders(args.headers);
  const idempotencyKey = args.idempotencyKey ?? headers[IDEMPOTENCY_HEADER] ?? (meta?.idempotent ? newKey() : undefined);
  if (idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
  return {
    headers,
    idempotencyKey,
    policy: { ...basePolicy, maxRetries: args.maxRetries ?? basePolicy.maxRetries },
    // Repeating a POST that has no idempotency key could create the resource twice.
    repeatable: args.method !== 'POST' || idempotencyKey !== undefined,
    timeoutMs: args.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    signal: args.fetchOptions?.signal ?? args.signal ?? undefined,
    path: args.path.slice(args.path.indexOf('/', args.path.indexOf('//') + 2)),
  };
}
