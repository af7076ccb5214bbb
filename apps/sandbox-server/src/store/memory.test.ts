import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memory.js';
import { UniqueViolation } from './types.js';
import { storeContract } from '../test-support/store-contract.js';

// The memory store runs a merchant's transactions one at a time: one begun while another runs is
// queued behind it from its start.
storeContract('MemoryStore', async () => new MemoryStore(), async () => true);
// Every record compressed in its own commit: each rule holds on compacted records too.
storeContract('MemoryStore, records compacted at commit', async () => new MemoryStore({ compaction: 'at-commit' }), async () => true);

describe('MemoryStore.locate', () => {
  it('finds a public handle through the one merchant that holds it, and a handle another merchant holds cannot be taken', async () => {
    const store = new MemoryStore();
    await store.withTransaction('m1', (tx) => tx.put('payment_link', 'l1', { code: 'abc', merchant: 'm1' }, 'abc'));
    await expect(store.withTransaction('m2', (tx) => tx.put('payment_link', 'l2', { code: 'abc', merchant: 'm2' }, 'abc'))).rejects.toBeInstanceOf(UniqueViolation);
    expect(await store.locate('payment_link', 'abc')).toEqual({ merchantId: 'm1', data: { code: 'abc', merchant: 'm1' } });
    await store.resetMerchant('m1');
    expect(await store.locate('payment_link', 'abc')).toBeUndefined();
    await store.withTransaction('m2', (tx) => tx.put('payment_link', 'l2', { code: 'abc', merchant: 'm2' }, 'abc'));
    expect(await store.locate('payment_link', 'abc')).toEqual({ merchantId: 'm2', data: { code: 'abc', merchant: 'm2' } });
    expect(await store.locate('payment_link', 'never')).toBeUndefined();
  });
});

describe('MemoryStore, its records outside the heap', () => {
  const SLAB = 4 * 1024 * 1024;
  /** Records that barely compress, so each keeps most of its 2 KB outside the heap. */
  const fill = (store: MemoryStore, merchant: string, from: number, n: number) =>
    store.withTransaction(merchant, async (tx) => {
      for (let k = from; k < from + n; k += 1) await tx.put('customer', `c${k}`, { id: `c${k}`, noise: randomBytes(1536).toString('base64') });
    });

  it('frees the bytes of records deleted, replaced and reset, those still waiting to be compacted included', async () => {
    const store = new MemoryStore();
    await fill(store, 'm1', 0, 6000);
    await fill(store, 'm2', 0, 100);
    store.compactNow();
    expect(store.offHeapBytes).toBeGreaterThanOrEqual(3 * SLAB);
    // Replaced and deleted: the slabs they filled fall under half live and are released.
    await fill(store, 'm1', 0, 3000);
    await store.withTransaction('m1', async (tx) => {
      for (let k = 3000; k < 6000; k += 1) await tx.delete('customer', `c${k}`);
    });
    store.compactNow();
    expect(store.offHeapBytes).toBeLessThanOrEqual(2 * 3000 * 2100 + SLAB);
    // Written again and reset before its turn in the compactor's queue: none of it stays.
    await fill(store, 'm1', 0, 3000);
    expect(await store.resetMerchant('m1')).toBe(3000);
    store.compactNow();
    expect(store.offHeapBytes).toBeLessThanOrEqual(SLAB);
    const kept = await store.withTransaction('m2', (tx) => tx.list<{ id: string }>('customer'));
    expect(kept.map((c) => c.id)).toEqual(Array.from({ length: 100 }, (_, k) => `c${k}`));
  });
});
