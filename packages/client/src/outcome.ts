import type { FetchResponse } from 'ofetch';
import type { Attempt } from './attempt.js';
import { ConnectionError, TimeoutError, type SwitchyardError } from './errors.js';
import type { ResponseInfo } from './options.js';
import { isRetryableResponse, parseRetryAfter } from './retry.js';

/** What the transport does after an attempt. */
export type Outcome =
  | { kind: 'retry'; retryAfterMs: number | undefined }
  | { kind: 'return'; response: FetchResponse<unknown>; body: unknown }
  | { kind: 'throw'; error: SwitchyardError };

/** What the `onResponse` hook learns about an attempt, beside what `onRequest` already had. */
export type AttemptReport = Pick<ResponseInfo, 'status' | 'requestId' | 'willRetry' | 'errorCode'>;

export interface AttemptContext {
  method: string;
  /** The path without the base URL, for messages. */
  path: string;
  /** 0 for the first attempt. */
  attempt: number;
  maxRetries: number;
  /** False for a POST without an idempotency key: only a 429, which was not processed, is retried. */
  repeatable: boolean;
  timeoutMs: number;
  /** The caller's signal, read once the attempt is over. */
  signal: AbortSignal | undefined;
  nowMs: number;
}

export function abortedByCaller(method: string, path: string, reason: unknown): ConnectionError {
  return new ConnectionError(`${method} ${path} was aborted by the caller`, { cause: reason });
}

/**
 * The decision after one attempt, without side effects: retry what is safe to retry while
 * retries remain (a request that may not run twice only after a 429) and the caller has not aborted, return any other response (error statuses
 * included: the caller's layer turns them into errors), throw when no response can come.
 */
export function classify(result: Attempt, ctx: AttemptContext): { report: AttemptReport; outcome: Outcome } {
  const { method, path } = ctx;
  const canRetry = ctx.attempt < ctx.maxRetries && !ctx.signal?.aborted;
  switch (result.kind) {
    case 'redirect':
      return {
        report: { status: undefined, requestId: undefined, willRetry: false, errorCode: 'ConnectionError' },
        outcome: { kind: 'throw', error: new ConnectionError(`${method} ${path} was answered with a redirect, which the client never follows: check baseUrl`, { cause: result.error }) },
      };
    case 'timeout':
    case 'network': {
      // Without a response the request may have been processed: only a repeatable one is sent again.
      const willRetry = canRetry && ctx.repeatable;
      const report = { status: undefined, requestId: undefined, willRetry, errorCode: result.kind === 'timeout' ? 'TimeoutError' : 'ConnectionError' };
      if (ctx.signal?.aborted) return { report, outcome: { kind: 'throw', error: abortedByCaller(method, path, ctx.signal.reason) } };
      if (willRetry) return { report, outcome: { kind: 'retry', retryAfterMs: undefined } };
      const attempts = `${ctx.attempt + 1} attempt(s)`;
      const error =
        result.kind === 'timeout'
          ? new TimeoutError(`${method} ${path} timed out after ${ctx.timeoutMs} ms (${attempts})`, { cause: result.error })
          : new ConnectionError(`${method} ${path} failed: ${(result.error as Error | undefined)?.message ?? 'connection error'} (${attempts})`, { cause: result.error });
      return { report, outcome: { kind: 'throw', error } };
    }
    case 'response': {
      const { response } = result;
      const body = response._data ?? null;
      const willRetry = canRetry && (ctx.repeatable ? isRetryableResponse(response.status, body) : response.status === 429);
      const report = {
        status: response.status,
        requestId: response.headers.get('x-request-id') ?? undefined,
        willRetry,
        errorCode: response.ok ? undefined : ((body as { code?: string } | null)?.code ?? undefined),
      };
      return willRetry
        ? { report, outcome: { kind: 'retry', retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), ctx.nowMs) } }
        : { report, outcome: { kind: 'return', response, body } };
    }
  }
}
