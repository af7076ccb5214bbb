import { describe, expect, it } from 'vitest';
import type { RequestContext } from './context.js';
import { IN_FLIGHT_TIMEOUT_MS, type IdempotencyRecord } from '../domain/idempotency.js';
import { BaseClock } from '../runtime/clock.js';
import { IdFactory } from '../runtime/ids.js';
import { MemoryStore } from '../store/memory.js';
import { withTransactions } from '../store/with-transactions.js';
import type { MerchantRecord, Store } from '../store/types.js';
import { runIdempotent } from './idempotency.js';

const merchant: MerchantRecord = {
  id: 'm1',
  name: 'crash test',
  public_api_key: 'pub',
  secret_key_digest: 'not used here',
  account_ids: ['acc'],
  fingerprint_key: 'fp',
  clock_offset_seconds: 0,
  created_at: '2026-01-01T00:00:00.000Z',
};

/** A store whose process "dies" from the given transaction on: that one and every later one fail. */
function dyingStore(store: Store, diesAtTransaction: number): Store {
  let count = 0;
  return withTransactions(store, (merchantId, fn) => {
    count += 1;
    if (count >= diesAtTransaction) return Promise.reject(new Error('process died'));
    return store.withTransaction(merchantId, fn);
  });
}

const contextAt = (store: Store, offsetSeconds: number): RequestContext => ({
  merchant: { ...merchant, clock_offset_seconds: offsetSeconds },
  store,
  clock: new BaseClock(Date.parse('2026-01-01T00:00:00.000Z')),
  ids: new IdFactory('seed').for(merchant.id),
  baseUrl: 'http://sandbox.test',
});

/** Creates one customer record; counts how many exist. */
const createCustomer = async (ctx: RequestContext) => {
  const id = `cus_${(await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.list('customer'))).length + 1}`;
  await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.put('customer', id, { id }));
  return { status: 201, body: { id } };
};
const customers = (store: Store) => store.withTransaction(merchant.id, (tx) => tx.list('customer'));
const keyRecord = (store: Store) => store.withTransaction(merchant.id, (tx) => tx.get<IdempotencyRecord>('idempotency', 'k1'));
const afterTimeout = IN_FLIGHT_TIMEOUT_MS / 1000;

describe('a duplicate of a request still running', () => {
  // Upstream's notes, "Idempotency", rule 2: 400 REQUEST_IN_PROCESS while the first is processed;
  // spec §5 leaves it "not shown", so upstream's answer at once governs.
  it('answers REQUEST_IN_PROCESS while the first is held, and replays once it completed', async () => {
    const store = new MemoryStore();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let firstSettled = false;
    const first = runIdempotent(contextAt(store, 0), 'k1', 'createCustomer', async (ctx) => {
      started();
      await gate;
      return createCustomer(ctx);
    }).finally(() => (firstSettled = true));
    await running;

    await expect(runIdempotent(contextAt(store, 0), 'k1', 'createCustomer', createCustomer)).rejects.toMatchObject({ code: 'REQUEST_IN_PROCESS' });
    expect(firstSettled).toBe(false);

    release();
    expect(await first).toEqual({ status: 201, body: { id: 'cus_1' }, replayed: false });
    expect(await runIdempotent(contextAt(store, 0), 'k1', 'createCustomer', createCustomer)).toEqual({ status: 201, body: { id: 'cus_1' }, replayed: true });
    expect(await customers(store)).toHaveLength(1);
  });
});

describe('a request lost with its process', () => {
  it('is never run again once its changes were saved', async () => {
    const store = new MemoryStore();
    // Transactions: 1 claims the key, 2 and 3 are the operation's, 4 would store the response.
    await expect(runIdempotent(contextAt(dyingStore(store, 4), 0), 'k1', 'createCustomer', createCustomer)).rejects.toThrow('process died');
    expect(await keyRecord(store)).toMatchObject({ state: 'in_progress', changes_saved: true });

    await expect(runIdempotent(contextAt(store, 1), 'k1', 'createCustomer', createCustomer)).rejects.toMatchObject({ code: 'REQUEST_IN_PROCESS' });
    await expect(runIdempotent(contextAt(store, afterTimeout), 'k1', 'createCustomer', createCustomer)).rejects.toMatchObject({
      code: 'IDEMPOTENCY_DUPLICATED',
    });
    expect(await customers(store)).toHaveLength(1);
  });

  it('runs again when none of its changes were saved', async () => {
    const store = new MemoryStore();
    await expect(runIdempotent(contextAt(dyingStore(store, 3), 0), 'k1', 'createCustomer', createCustomer)).rejects.toThrow('process died');
    expect(await keyRecord(store)).toMatchObject({ state: 'in_progress' });
    expect((await keyRecord(store))?.changes_saved).toBeUndefined();
    expect(await customers(store)).toHaveLength(0);

    const retry = await runIdempotent(contextAt(store, afterTimeout), 'k1', 'createCustomer', createCustomer);
    expect(retry).toEqual({ status: 201, body: { id: 'cus_1' }, replayed: false });
    expect(await customers(store)).toHaveLength(1);
    expect(await keyRecord(store)).toMatchObject({ state: 'completed' });
  });
});
