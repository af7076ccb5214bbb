/** When and how long to wait before trying again. */

/** Sent on every retry with the retry's number (1, 2, ...); the first attempt has none. */
export const RETRY_COUNT_HEADER = 'x-retry-count';

export interface RetryPolicy {
  maxRetries: number;
  /** First backoff step; doubles each attempt. */
  initialDelayMs: number;
  /** No wait is ever longer, whatever Retry-After asks. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 8000 };

const RETRYABLE_STATUS = new Set([408, 429]);

/** Statuses worth another attempt: 408, 429, 5xx, and 400 REQUEST_IN_PROCESS (the first attempt is still running). */
export function isRetryableResponse(status: number, body: unknown): boolean {
  if (RETRYABLE_STATUS.has(status) || status >= 500) return true;
  return status === 400 && typeof body === 'object' && body !== null && (body as { code?: unknown }).code === 'REQUEST_IN_PROCESS';
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The wait before retry number `retry` (1-based): Retry-After when the server sent one,
 * otherwise exponential backoff with jitter (half fixed, half random); never more than `maxDelayMs`.
 */
export function retryDelay(policy: RetryPolicy, retry: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Sleeps, waking early (with the abort reason) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
