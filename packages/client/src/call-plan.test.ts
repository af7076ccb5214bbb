import { describe, expect, it } from 'vitest';
import type { ApiFetcherArgs } from '@ts-rest/core';
import { customersContract, IDEMPOTENCY_HEADER, paymentsContract } from '@switchyard/contract';
import { planCall } from './call-plan.js';
import type { CallOptions } from './options.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';

const base = { ...DEFAULT_RETRY_POLICY, maxRetries: 3 };
const newKey = () => 'generated-key';

function args(route: ApiFetcherArgs['route'], extra: Partial<ApiFetcherArgs & CallOptions> = {}): ApiFetcherArgs & CallOptions {
  return {
    route,
    path: 'http://localhost:4010/v1/payments?limit=2',
    method: route.method,
    headers: { 'public-api-key': 'pk', [IDEMPOTENCY_HEADER]: '', 'x-optional': undefined } as unknown as Record<string, string>,
    body: undefined,
    rawBody: undefined,
    rawQuery: undefined,
    contentType: undefined,
    fetchOptions: {},
    validateResponse: false,
    ...extra,
  };
}

describe('planCall', () => {
  it('makes one key for an idempotent route and sends it, dropping empty headers', () => {
    const plan = planCall(args(paymentsContract.create), base, {}, newKey);
    expect(plan.idempotencyKey).toBe('generated-key');
    expect(plan.headers).toEqual({ 'public-api-key': 'pk', [IDEMPOTENCY_HEADER]: 'generated-key' });
    expect(plan.policy.maxRetries).toBe(3);
  });

  it("prefers the caller's key, given as an option or as a header", () => {
    expect(planCall(args(paymentsContract.create, { idempotencyKey: 'mine' }), base, {}, newKey).idempotencyKey).toBe('mine');
    const headers = { [IDEMPOTENCY_HEADER]: 'from-header' };
    expect(planCall(args(paymentsContract.create, { headers }), base, {}, newKey).idempotencyKey).toBe('from-header');
  });

  it('marks a POST without a key as not repeatable, and makes no key for a route that is not idempotent', () => {
    const plan = planCall(args(customersContract.create), base, {}, newKey);
    expect(plan).toMatchObject({ idempotencyKey: undefined, repeatable: false });
    expect(planCall(args(paymentsContract.get), base, {}, newKey)).toMatchObject({ idempotencyKey: undefined, repeatable: true, policy: { maxRetries: 3 } });
    expect(planCall(args(paymentsContract.create), base, {}, newKey)).toMatchObject({ repeatable: true });
  });

  it('takes the per-call retries and time-out over the client defaults', () => {
    const plan = planCall(args(paymentsContract.get, { maxRetries: 1, timeoutMs: 50 }), base, { timeoutMs: 900 }, newKey);
    expect(plan).toMatchObject({ policy: { maxRetries: 1 }, timeoutMs: 50 });
    expect(planCall(args(paymentsContract.get), base, { timeoutMs: 900 }, newKey).timeoutMs).toBe(900);
  });

  it('reports the path without the base URL', () => {
    expect(planCall(args(paymentsContract.get), base, {}, newKey).path).toBe('/v1/payments?limit=2');
  });
});
