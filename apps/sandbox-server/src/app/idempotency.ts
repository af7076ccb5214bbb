import { isServerFault } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { decide, type IdempotencyRecord, type StoredResponse } from '../domain/idempotency.js';
import { nowOf, type RequestContext } from './context.js';
import type { Store, Tx } from '../store/types.js';
import { withTransactions } from '../store/with-transactions.js';

export interface IdempotentResult extends StoredResponse {
  replayed: boolean;
}

type Claim = { kind: 'claimed' } | { kind: 'replay'; response: StoredResponse };

async function claim(ctx: RequestContext, key: string, operationId: string): Promise<Claim> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const nowMs = nowOf(ctx).getTime();
    const decision = decide(await tx.get<IdempotencyRecord>('idempotency', key), operationId, nowMs);
    switch (decision.kind) {
      case 'start':
        await tx.put<IdempotencyRecord>('idempotency', key, { key, operation_id: operationId, state: 'in_progress', response: null, created_at_ms: nowMs });
        return { kind: 'claimed' };
      case 'replay':
        return { kind: 'replay', response: decision.response };
      case 'reject':
        throw new DomainError(decision.code, [decision.message]);
    }
  });
}

async function settle(ctx: RequestContext, key: string, change: (r: IdempotencyRecord) => IdempotencyRecord | null): Promise<void> {
  await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const record = await tx.get<IdempotencyRecord>('idempotency', key);
    if (!record) return;
    const next = change(record);
    if (next) await tx.put('idempotency', key, next);
    else await tx.delete('idempotency', key);
  });
}

/**
 * The operation's view of the store: the first of its transactions that changes anything also
 * marks the key's record, in that same transaction, so a key lost with its process tells
 * whether the operation's changes were saved (see `decide`).
 */
function journaledContext<C extends RequestContext>(ctx: C, key: string): C {
  let marked = false;
  const withTransaction: Store['withTransaction'] = async (merchantId, fn) => {
    if (marked || merchantId !== ctx.merchant.id) return ctx.store.withTransaction(merchantId, fn);
    const result = await ctx.store.withTransaction(merchantId, async (tx) => {
      let wrote = false;
      const tracked: Tx = {
        get: (kind, id) => tx.get(kind, id),
        getByUniqueKey: (kind, uniqueKey) => tx.getByUniqueKey(kind, uniqueKey),
        list: (kind) => tx.list(kind),
        listEntries: (kind, limit) => tx.listEntries(kind, limit),
        newest: (kind, limit) => tx.newest(kind, limit),
        newestBy: (kind, field, values, limit) => tx.newestBy(kind, field, values, limit),
        lock: (name) => tx.lock(name),
        listDue: (kind, lane, untilMs, limit) => tx.listDue(kind, lane, untilMs, limit),
        deleteDue: (kind, lane, untilMs, limit) => {
          wrote = true;
          return tx.deleteDue(kind, lane, untilMs, limit);
        },
        put: (kind, id, data, uniqueKey) => {
          wrote = true;
          return tx.put(kind, id, data, uniqueKey);
        },
        create: (kind, id, data, uniqueKey) => {
          wrote = true;
          return tx.create(kind, id, data, uniqueKey);
        },
        delete: (kind, id) => {
          wrote = true;
          return tx.delete(kind, id);
        },
      };
      const value = await fn(tracked);
      if (wrote) {
        const record = await tx.get<IdempotencyRecord>('idempotency', key);
        if (record?.state === 'in_progress') await tx.put<IdempotencyRecord>('idempotency', key, { ...record, changes_saved: true });
      }
      return { value, wrote };
    });
    marked = result.wrote;
    return result.value;
  };
  return { ...ctx, store: withTransactions(ctx.store, withTransaction) };
}

/**
 * Runs `operation` at most once per (merchant, key). A duplicate sent while the first is still
 * running answers REQUEST_IN_PROCESS at once, as upstream does; one sent after it completed
 * replays its response, so N identical requests make one resource. Business errors (DomainErrors the client caused) use the
 * key up; server faults and unexpected errors release it so the request can be retried with the same key.
 */
export async function runIdempotent<C extends RequestContext>(
  ctx: C,
  key: string,
  operationId: string,
  operation: (ctx: C) => Promise<StoredResponse>,
): Promise<IdempotentResult> {
  const claimed = await claim(ctx, key, operationId);
  if (claimed.kind === 'replay') return { ...claimed.response, replayed: true };
  let response: StoredResponse;
  try {
    response = await operation(journaledContext(ctx, key));
  } catch (error) {
    // A refusal to take the request now (TOO_MANY_REQUESTS: the memory ceiling) made nothing: the
    // key is released like a server fault's, so the same request may run once memory is freed.
    if (error instanceof DomainError && !isServerFault(error.code) && error.code !== 'TOO_MANY_REQUESTS') {
      // A failed key is never replayed (decide answers IDEMPOTENCY_DUPLICATED), so no response is kept.
      await settle(ctx, key, (r) => ({ ...r, state: 'failed', response: null }));
      throw error;
    }
    await settle(ctx, key, () => null);
    throw error;
  }
  await settle(ctx, key, (r) => ({ ...r, state: 'completed', response }));
  return { ...response, replayed: false };
}
