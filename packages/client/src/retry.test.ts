import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, isRetryableResponse, parseRetryAfter, retryDelay, sleep } from './retry.js';

describe('retry policy', () => {
  it('retries 408, 429, 5xx and REQUEST_IN_PROCESS only', () => {
    expect([408, 429, 500, 502, 503, 504].every((s) => isRetryableResponse(s, null))).toBe(true);
    expect(isRetryableResponse(400, { code: 'REQUEST_IN_PROCESS' })).toBe(true);
    expect(isRetryableResponse(400, { code: 'INVALID_AMOUNT' })).toBe(false);
    expect([401, 403, 404, 409, 422].some((s) => isRetryableResponse(s, null))).toBe(false);
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter('0.5', 0)).toBe(500);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:29:00 GMT'))).toBe(0);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, initialDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelay(policy, 1, undefined, () => 0)).toBe(50);
    expect(retryDelay(policy, 1, undefined, () => 1)).toBe(100);
    expect(retryDelay(policy, 3, undefined, () => 1)).toBe(400);
    expect(retryDelay(policy, 10, undefined, () => 1)).toBe(1000);
    expect(retryDelay(policy, 1, 300, () => 1)).toBe(300);
    expect(retryDelay(policy, 1, 60_000, () => 1)).toBe(1000);
  });

  it('sleeps until aborted', async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
