import type { $Fetch, FetchResponse } from 'ofetch';

/** What one attempt ended with: a response (of any status), or why none arrived. */
export type Attempt =
  | { kind: 'response'; response: FetchResponse<unknown> }
  | { kind: 'timeout'; error: unknown }
  | { kind: 'network'; error: unknown }
  | { kind: 'redirect'; error: unknown };

export interface AttemptRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  /** The caller's signal; aborting it aborts the attempt. */
  signal: AbortSignal | undefined;
}

/** undici's error for a redirect refused by `redirect: 'error'`, somewhere down the cause chain. */
export function isRefusedRedirect(error: unknown): boolean {
  for (let e = error as { message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth += 1) {
    if (e.message === 'unexpected redirect') return true;
  }
  return false;
}

/** One attempt, bounded by its own time-out and by the caller's signal. Never throws. */
export async function attempt(fetchImpl: $Fetch, request: AttemptRequest): Promise<Attempt> {
  const { timeoutMs, signal: callerSignal } = request;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const onAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await fetchImpl.raw(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body as BodyInit | undefined,
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
