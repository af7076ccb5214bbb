import { validateResponse, ResponseValidationError as TsRestResponseValidationError, type ApiFetcherArgs, type AppRoute } from '@ts-rest/core';
import { describeIssues } from '@switchyard/contract';
import { createFetch, ofetch } from 'ofetch';
import { attempt } from './attempt.js';
import { planCall } from './call-plan.js';
import { ResponseValidationError } from './errors.js';
import { headerRecord } from './headers.js';
import type { CallOptions, ClientOptions } from './options.js';
import { abortedByCaller, classify } from './outcome.js';
import { DEFAULT_RETRY_POLICY, RETRY_COUNT_HEADER, retryDelay, sleep, type RetryPolicy } from './retry.js';

export interface TransportResponse {
  status: number;
  body: unknown;
  headers: Headers;
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
 * The `api` ts-rest calls for every route: plans the call (idempotency key, retries, time-out),
 * then per attempt fetches, reports to the hooks, and acts on `classify`'s outcome: waits and
 * retries, returns the response (validated when asked), or throws.
 */
export function createTransport(options: ClientOptions) {
  const fetchImpl = options.fetch ? createFetch({ fetch: options.fetch }) : ofetch;
  const basePolicy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retryDelay, maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries };

  return async (args: ApiFetcherArgs & CallOptions): Promise<TransportResponse> => {
    const { headers, idempotencyKey, policy, repeatable, timeoutMs, signal, path } = planCall(args, basePolicy, options);
    for (let n = 0; ; n += 1) {
      const info = { method: args.method, path, attempt: n, idempotencyKey };
      options.onRequest?.(info);
      const started = Date.now();
      const result = await attempt(fetchImpl, {
        url: args.path,
        method: args.method,
        headers: n === 0 ? headers : { ...headers, [RETRY_COUNT_HEADER]: String(n) },
        body: args.body ?? undefined,
        timeoutMs,
        signal,
      });
      const durationMs = Date.now() - started;
      const { report, outcome } = classify(result, { method: args.method, path, attempt: n, maxRetries: policy.maxRetries, repeatable, timeoutMs, signal, nowMs: Date.now() });
      options.onResponse?.({ ...info, ...report, durationMs });
      if (outcome.kind === 'throw') throw outcome.error;
      if (outcome.kind === 'return') {
        const { response, body } = outcome;
        const finalBody = options.validateResponses ? validated(args.route, response.status, body, headerRecord(response.headers)) : body;
        return { status: response.status, body: finalBody, headers: response.headers };
      }
      await sleep(retryDelay(policy, n + 1, outcome.retryAfterMs), signal).catch((reason: unknown) => {
        throw abortedByCaller(args.method, path, reason);
      });
    }
  };
}
