/**
 * Idempotency rules (upstream's): a completed request is replayed; a request still running
 * answers REQUEST_IN_PROCESS; a request that failed after processing began used its key up
 * (IDEMPOTENCY_DUPLICATED); a request rejected before processing never recorded its key.
 * Keys live 24 hours of sandbox time and belong to one merchant.
 */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;

/**
 * A request still "in progress" after this long was lost (its process died before it answered):
 * its key can be claimed again if none of its changes were saved. Longer than the slowest simulated provider (30 s).
 */
export const IN_FLIGHT_TIMEOUT_MS = 60_000;

export interface StoredResponse {
  status: number;
  body: unknown;
}

export interface IdempotencyRecord {
  key: string;
  operation_id: string;
  state: 'in_progress' | 'completed' | 'failed';
  response: StoredResponse | null;
  created_at_ms: number;
  /** Set in the same transaction as the operation's first change: its changes were saved. */
  changes_saved?: boolean;
}

export type Decision =
  | { kind: 'start' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'reject'; code: 'IDEMPOTENCY_DUPLICATED' | 'REQUEST_IN_PROCESS'; message: string };

export function decide(record: IdempotencyRecord | undefined, operationId: string, nowMs: number): Decision {
  if (!record || nowMs - record.created_at_ms >= IDEMPOTENCY_RETENTION_MS) return { kind: 'start' };
  if (record.operation_id !== operationId) {
    return { kind: 'reject', code: 'IDEMPOTENCY_DUPLICATED', message: `the idempotency key ${record.key} was already used for another operation (${record.operation_id})` };
  }
  if (record.state === 'in_progress') {
    if (nowMs - record.created_at_ms < IN_FLIGHT_TIMEOUT_MS) {
      // Answered at once, not after waiting for the first (upstream's notes "Idempotency", rule 2; spec §5: "not shown").
      return { kind: 'reject', code: 'REQUEST_IN_PROCESS', message: `a request with idempotency key ${record.key} is still being processed; retry later` };
    }
    // Running it again could create or refund twice; nothing was saved means it is safe.
    if (!record.changes_saved) return { kind: 'start' };
    return {
      kind: 'reject',
      code: 'IDEMPOTENCY_DUPLICATED',
      message: `the request with idempotency key ${record.key} was interrupted after its changes were saved and its response is lost; read the resource, or use a new key`,
    };
  }
  if (record.state === 'failed') {
    return { kind: 'reject', code: 'IDEMPOTENCY_DUPLICATED', message: `the request with idempotency key ${record.key} failed after processing began; use a new key` };
  }
  return { kind: 'replay', response: record.response as StoredResponse };
}
