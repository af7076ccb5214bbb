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
