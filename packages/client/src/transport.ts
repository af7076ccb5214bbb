import { validateResponse, ResponseValidationError as TsRestResponseValidationError, type ApiFetcherArgs, type AppRoute } from '@ts-rest/core';
import { describeIssues, IDEMPOTENCY_HEADER, type RouteMeta } from '@switchyard/contract';
import { createFetch, ofetch, type FetchResponse } from 'ofetch';
import { ConnectionError, ResponseValidationError, TimeoutError } from './errors.js';
import { newIdempotencyKey } from './idempotency.js';
import { DEFAULT_TIMEOUT_MS, type CallOptions, type ClientOptions } from './options.js';
import { DEFAULT_RETRY_POLICY, RETRY_COUNT_HEADER, isRetryableResponse, parseRetryAfter, retryDelay, sleep, type RetryPolicy } from './retry.js';

export interface TransportResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

type Attempt =
  | { kind: 'response'; response: FetchResponse<unknown> }
  | { kind: 'timeout'; error: unknown }
  | { kind: 'network'; error: unknown }
  | { kind: 'redirect'; error: unknown };

/** undici's error for a redirect refused by `redirect: 'error'`, somewhere down the cause chain. */
function isRefusedRedirect(error: unknown): boolean {
  for (let e = error as { message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth += 1) {
    if (e.message === 'unexpected redirect') return true;
  }
  return false;
}

function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** Drops headers without a value (ts-rest may pass placeholders for optional ones). */
function cleanHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

/** One attempt, bounded by its own time-out and by the caller's signal. */
async function attempt(fetchImpl: typeof ofetch, url: string, init: { method: string; headers: Record<string, string>; body: unknown }, timeoutMs: number, callerSignal: AbortSignal | undefined): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const onAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await fetchImpl.raw(url, {
      method: init.method,
      headers: init.headers,
      body: init.body as BodyInit | undefined,
      signal: controller.signal,
      // A redirect from an API means a wrong base URL. Refusing it also spares undici a copy of
      // every request body (it tees the body of each request it might have to follow).
      redirect: 'error',
      retry: 0,
      ignoreResponseError: true,
    });
    return { kind: 'response', response };
  } catch (error) {
    if (timedOut) return { kind: 'timeout', error };
    return isRefusedRedirect(error) ? { kind: 'redirect', error } : { kind: 'network', error };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onAbort);
  }
}

function validated(route: AppRoute, status: number, body: unknown, headers: Record<string, string>): unknown {
  try {
    return validateResponse({ appRoute: route, response: { status, body } }).body;
  } catch (error) {
    if (error instanceof TsRestResponseValidationError) {
      const messages = describeIssues(error.cause, 'response');
      throw new ResponseValidationError(`response ${status} of ${route.method} ${route.path} does not match the contract: ${messages.join('; ')}`, {
        status,
        messages,
        requestId: headers['x-request-id'],
        headers,
        raw: body,
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * The `api` ts-rest calls for every route: adds the idempotency key (once per call, the same on
 * every retry), retries what is safe to retry with jittered backoff and Retry-After, applies the
 * per-attempt time-out together with the caller's signal, reports to the hooks, and optionally
 * validates the response.
 */
export function createTransport(options: ClientOptions) {
  const fetchImpl = options.fetch ? createFetch({ fetch: options.fetch }) : ofetch;
  const basePolicy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retryDelay, maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries };

  return async (args: ApiFetcherArgs & CallOptions): Promise<TransportResponse> => {
    const meta = args.route.metadata as RouteMeta | undefined;
    const headers = cleanHeaders(args.headers);
    const idempotencyKey = meta?.idempotent
      ? (args.idempotencyKey ?? headers[IDEMPOTENCY_HEADER] ?? newIdempotencyKey())
      : (args.idempotencyKey ?? headers[IDEMPOTENCY_HEADER]);
    if (idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
    // Repeating a POST that has no idempotency key could create the resource twice.
    const retriable = args.method !== 'POST' || idempotencyKey !== undefined;
    const policy = { ...basePolicy, maxRetries: retriable ? (args.maxRetries ?? basePolicy.maxRetries) : 0 };
    const timeoutMs = args.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = args.fetchOptions?.signal ?? args.signal ?? undefined;
    // The path without the base URL, for hooks and messages; args.path is the full URL.
    const path = args.path.slice(args.path.indexOf('/', args.path.indexOf('//') + 2));

    for (let n = 0; ; n += 1) {
      const info = { method: args.method, path, attempt: n, idempotencyKey };
      options.onRequest?.(info);
      const started = Date.now();
      const result = await attempt(fetchImpl, args.path, { method: args.method, headers: n === 0 ? headers : { ...headers, [RETRY_COUNT_HEADER]: String(n) }, body: args.body ?? undefined }, timeoutMs, signal);
      const durationMs = Date.now() - started;
      const canRetry = n < policy.maxRetries && !signal?.aborted;

      if (result.kind === 'redirect') {
        options.onResponse?.({ ...info, status: undefined, requestId: undefined, durationMs, willRetry: false, errorCode: 'ConnectionError' });
        throw new ConnectionError(`${args.method} ${path} was answered with a redirect, which the client never follows: check baseUrl`, { cause: result.error });
      }
      if (result.kind !== 'response') {
        const willRetry = canRetry;
        options.onResponse?.({ ...info, status: undefined, requestId: undefined, durationMs, willRetry, errorCode: result.kind === 'timeout' ? 'TimeoutError' : 'ConnectionError' });
        if (signal?.aborted) throw new ConnectionError(`${args.method} ${path} was aborted by the caller`, { cause: signal.reason });
        if (!willRetry) {
          throw result.kind === 'timeout'
            ? new TimeoutError(`${args.method} ${path} timed out after ${timeoutMs} ms (${n + 1} attempt(s))`, { cause: result.error })
            : new ConnectionError(`${args.method} ${path} failed: ${(result.error as Error)?.message ?? 'connection error'} (${n + 1} attempt(s))`, { cause: result.error });
        }
        await sleep(retryDelay(policy, n + 1, undefined), signal).catch((reason: unknown) => {
          throw new ConnectionError(`${args.method} ${path} was aborted by the caller`, { cause: reason });
        });
        continue;
      }

      const { response } = result;
      const body = response._data ?? null;
      const willRetry = canRetry && isRetryableResponse(response.status, body);
      options.onResponse?.({
        ...info,
        status: response.status,
        requestId: response.headers.get('x-request-id') ?? undefined,
        durationMs,
        willRetry,
        errorCode: response.ok ? undefined : ((body as { code?: string } | null)?.code ?? undefined),
      });
      if (willRetry) {
        const wait = retryDelay(policy, n + 1, parseRetryAfter(response.headers.get('retry-after'), Date.now()));
        await sleep(wait, signal).catch((reason: unknown) => {
          throw new ConnectionError(`${args.method} ${path} was aborted by the caller`, { cause: reason });
        });
        continue;
      }
      const finalBody = options.validateResponses ? validated(args.route, response.status, body, headerRecord(response.headers)) : body;
      return { status: response.status, body: finalBody, headers: response.headers };
    }
  };
}
