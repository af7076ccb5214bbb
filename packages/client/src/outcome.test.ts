import { describe, expect, it } from 'vitest';
import type { FetchResponse } from 'ofetch';
import type { Attempt } from './attempt.js';
import { ConnectionError, TimeoutError } from './errors.js';
import { classify, type AttemptContext } from './outcome.js';

const ctx = (extra: Partial<AttemptContext> = {}): AttemptContext => ({
  method: 'POST',
  path: '/v1/payments',
  attempt: 0,
  maxRetries: 2,
  repeatable: true,
  timeoutMs: 1000,
  signal: undefined,
  nowMs: Date.parse('2026-01-01T00:00:00Z'),
  ...extra,
});

function response(status: number, data: unknown, headers: Record<string, string> = {}): Attempt {
  const res: FetchResponse<unknown> = Object.assign(new Response(null, { status, headers }), { _data: data });
  return { kind: 'response', response: res };
}

const aborted = () => {
  const controller = new AbortController();
  controller.abort(new Error('stop'));
  return controller.signal;
};

describe('classify a response', () => {
  it('returns a success or a final error status as it came', () => {
    const ok = classify(response(200, { id: 1 }, { 'x-request-id': 'req-1' }), ctx());
    expect(ok.outcome).toMatchObject({ kind: 'return', body: { id: 1 } });
    expect(ok.report).toEqual({ status: 200, requestId: 'req-1', willRetry: false, errorCode: undefined });
    const notFound = classify(response(404, { code: 'PAYMENT_NOT_FOUND' }), ctx());
    expect(notFound.outcome.kind).toBe('return');
    expect(notFound.report).toMatchObject({ status: 404, errorCode: 'PAYMENT_NOT_FOUND', willRetry: false });
  });

  it('returns null for an empty body', () => {
    expect(classify(response(204, undefined), ctx()).outcome).toMatchObject({ kind: 'return', body: null });
  });

  it('retries a retryable status while retries remain, with the Retry-After it asks for', () => {
    const { outcome, report } = classify(response(429, { code: 'TOO_MANY_REQUESTS' }, { 'retry-after': '2' }), ctx());
    expect(outcome).toEqual({ kind: 'retry', retryAfterMs: 2000 });
    expect(report.willRetry).toBe(true);
    expect(classify(response(503, null), ctx()).outcome).toEqual({ kind: 'retry', retryAfterMs: undefined });
  });

  it('retries a request that may not run twice only after a 429', () => {
    expect(classify(response(429, null, { 'retry-after': '1' }), ctx({ repeatable: false })).outcome).toEqual({ kind: 'retry', retryAfterMs: 1000 });
    expect(classify(response(503, null), ctx({ repeatable: false })).outcome.kind).toBe('return');
    for (const kind of ['network', 'timeout'] as const) {
      const { outcome, report } = classify({ kind, error: new Error('reset') }, ctx({ repeatable: false }));
      expect([outcome.kind, report.willRetry]).toEqual(['throw', false]);
    }
  });

  it('returns a retryable status once the retries are used up or the caller aborted', () => {
    expect(classify(response(503, null), ctx({ attempt: 2 })).outcome.kind).toBe('return');
    expect(classify(response(503, null), ctx({ signal: aborted() })).outcome.kind).toBe('return');
  });
});

describe('classify a missing response', () => {
  it('retries a connection error or a time-out while retries remain', () => {
    for (const kind of ['network', 'timeout'] as const) {
      const { outcome, report } = classify({ kind, error: new Error('reset') }, ctx());
      expect(outcome).toEqual({ kind: 'retry', retryAfterMs: undefined });
      expect(report).toEqual({ status: undefined, requestId: undefined, willRetry: true, errorCode: kind === 'timeout' ? 'TimeoutError' : 'ConnectionError' });
    }
  });

  it('throws after the last attempt, counting the attempts', () => {
    const timeout = classify({ kind: 'timeout', error: new Error('slow') }, ctx({ attempt: 2 })).outcome;
    expect(timeout.kind === 'throw' && timeout.error).toBeInstanceOf(TimeoutError);
    expect(timeout.kind === 'throw' && timeout.error.message).toBe('POST /v1/payments timed out after 1000 ms (3 attempt(s))');
    const network = classify({ kind: 'network', error: new Error('reset') }, ctx({ attempt: 2 })).outcome;
    expect(network.kind === 'throw' && network.error).not.toBeInstanceOf(TimeoutError);
    expect(network.kind === 'throw' && network.error.message).toBe('POST /v1/payments failed: reset (3 attempt(s))');
  });

  it('throws at once when the caller aborted, with the reason as the cause', () => {
    const signal = aborted();
    const { outcome, report } = classify({ kind: 'network', error: new Error('aborted') }, ctx({ signal }));
    expect(report.willRetry).toBe(false);
    expect(outcome.kind === 'throw' && outcome.error).toBeInstanceOf(ConnectionError);
    expect(outcome.kind === 'throw' && outcome.error.message).toBe('POST /v1/payments was aborted by the caller');
    expect(outcome.kind === 'throw' && outcome.error.cause).toBe(signal.reason);
  });

  it('never retries a redirect', () => {
    const { outcome, report } = classify({ kind: 'redirect', error: new Error('unexpected redirect') }, ctx());
    expect(report).toMatchObject({ willRetry: false, errorCode: 'ConnectionError' });
    expect(outcome.kind === 'throw' && outcome.error.message).toMatch(/redirect, which the client never follows/);
  });
});
