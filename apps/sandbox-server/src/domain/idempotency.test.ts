import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_RETENTION_MS, IN_FLIGHT_TIMEOUT_MS, decide, type IdempotencyRecord } from './idempotency.js';

const record = (over: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
  key: 'k',
  operation_id: 'refundTransaction',
  state: 'completed',
  response: { status: 200, body: { id: 'p' } },
  created_at_ms: 1000,
  ...over,
});

describe('idempotency decisions', () => {
  it('starts when the key is new or older than 24 hours', () => {
    expect(decide(undefined, 'refundTransaction', 0)).toEqual({ kind: 'start' });
    expect(decide(record(), 'refundTransaction', 1000 + IDEMPOTENCY_RETENTION_MS)).toEqual({ kind: 'start' });
  });
  it('replays a completed request within 24 hours', () => {
    expect(decide(record(), 'refundTransaction', 1000 + IDEMPOTENCY_RETENTION_MS - 1)).toEqual({ kind: 'replay', response: { status: 200, body: { id: 'p' } } });
  });
  it('answers REQUEST_IN_PROCESS at once for a request in progress', () => {
    expect(decide(record({ state: 'in_progress', response: null }), 'refundTransaction', 2000)).toMatchObject({ kind: 'reject', code: 'REQUEST_IN_PROCESS' });
  });
  it('rejects a key used up by a failure, or used by another operation', () => {
    expect(decide(record({ state: 'failed' }), 'refundTransaction', 2000)).toMatchObject({ kind: 'reject', code: 'IDEMPOTENCY_DUPLICATED' });
    expect(decide(record(), 'createPayment', 2000)).toMatchObject({ kind: 'reject', code: 'IDEMPOTENCY_DUPLICATED' });
  });
});

describe('lost requests', () => {
  it('lets a key still in progress after the in-flight timeout be claimed again', () => {
    const stuck = record({ state: 'in_progress', response: null, created_at_ms: 0 });
    expect(decide(stuck, 'refundTransaction', IN_FLIGHT_TIMEOUT_MS - 1)).toMatchObject({ kind: 'reject', code: 'REQUEST_IN_PROCESS' });
    expect(decide(stuck, 'refundTransaction', IN_FLIGHT_TIMEOUT_MS)).toEqual({ kind: 'start' });
  });

  it('never runs again a lost request whose changes were saved', () => {
    const saved = record({ state: 'in_progress', response: null, created_at_ms: 0, changes_saved: true });
    expect(decide(saved, 'refundTransaction', IN_FLIGHT_TIMEOUT_MS - 1)).toMatchObject({ kind: 'reject', code: 'REQUEST_IN_PROCESS' });
    expect(decide(saved, 'refundTransaction', IN_FLIGHT_TIMEOUT_MS)).toMatchObject({ kind: 'reject', code: 'IDEMPOTENCY_DUPLICATED' });
  });
});
