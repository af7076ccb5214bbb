import type { RetryPolicy } from './retry.js';

/** Where the sandbox listens by default (`npx -y pnpm@10 sandbox`). */
export const SANDBOX_BASE_URL = 'http://localhost:4010';

/** `http://host:4010/` and `http://host:4010` are the same base; a trailing slash never doubles. */
export function normalizeBaseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Upstream states a 60 s time-out on every endpoint; it applies to each attempt. */
export const DEFAULT_TIMEOUT_MS = 60_000;

export interface RequestInfo {
  method: string;
  /** Path and query, without the base URL. */
  path: string;
  /** 0 for the first attempt, 1 for the first retry, ... */
  attempt: number;
  idempotencyKey: string | undefined;
}

export interface ResponseInfo extends RequestInfo {
  /** Undefined when no response arrived (connection error, timeout). */
  status: number | undefined;
  requestId: string | undefined;
  durationMs: number;
  /** Whether another attempt follows. */
  willRetry: boolean;
  /** The API error code of an error response, or the error's name when no response arrived. */
  errorCode: string | undefined;
}

export interface ClientOptions {
  /** Default: the local sandbox, http://localhost:4010. A trailing slash is fine. */
  baseUrl?: string;
  publicApiKey: string;
  privateSecretKey: string;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Per-attempt time-out in ms (default 60 000). */
  timeoutMs?: number;
  /** Backoff tuning: first step and the cap on any wait, Retry-After included (defaults 500 ms and 8 s). */
  retryDelay?: Partial<Pick<RetryPolicy, 'initialDelayMs' | 'maxDelayMs'>>;
  /** Validate every response body against the contract; a mismatch throws ResponseValidationError. */
  validateResponses?: boolean;
  /** Called before each attempt. Never receives headers or bodies. */
  onRequest?: (info: RequestInfo) => void;
  /** Called after each attempt, successful or not. Never receives headers or bodies. */
  onResponse?: (info: ResponseInfo) => void;
  /** A fetch implementation (default: the platform's). */
  fetch?: typeof globalThis.fetch;
}

/**
 * Per-call options, accepted next to `params`, `body` and `headers` on every route. To cancel a
 * call, pass ts-rest's `fetchOptions: { signal }`; it is combined with the per-attempt time-out.
 */
export interface CallOptions {
  /** Your own key for an idempotent route (default: a UUID v4 made once per call). */
  idempotencyKey?: string;
  maxRetries?: number;
  timeoutMs?: number;
}
