import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memory.js';
import { UniqueViolation } from './types.js';

describe('MemoryStore', () => {
  it('commits all writes of a transaction or none', async () => {
    const store = new MemoryStore();
    await expect(
      store.withTransaction('m', async (tx) => {
        await tx.put('customer', 'a', { n: 1 });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.withTransaction('m', (tx) => tx.get('customer', 'a'))).toBeUndefined();
  });

  it('lets a transaction read its own writes and deletes', async () => {
    const store = new MemoryStore();
    await store.withTransaction('m', async (tx) => {
      await tx.put('customer', 'a', { n: 1 });
      expect(await tx.get('customer', 'a')).toEqual({ n: 1 });
      await tx.delete('customer', 'a');
      expect(await tx.get('customer', 'a')).toBeUndefined();
      expect(await tx.list('customer')).toEqual([]);
    });
  });

  it('enforces unique keys within a merchant, not across merchants', async () => {
    const store = new MemoryStore();
    await store.withTransaction('m1', (tx) => tx.put('customer', 'a', {}, 'ext-1'));
    await expect(store.withTransaction('m1', (tx) => tx.put('customer', 'b', {}, 'ext-1'))).rejects.toBeInstanceOf(UniqueViolation);
    await store.withTransaction('m2', (tx) => tx.put('customer', 'b', {}, 'ext-1'));
    expect(await store.withTransaction('m1', (tx) => tx.getByUniqueKey('customer', 'ext-1'))).toEqual({});
  });

  it('serialises the transactions of one merchant', async () => {
    const store = new MemoryStore();
    await store.withTransaction('m', (tx) => tx.put('payment', 'p', { n: 0 }));
    await Promise.all(
      Array.from({ length: 50 }, () =>
        store.withTransaction('m', async (tx) => {
          const p = (await tx.get<{ n: number }>('payment', 'p')) as { n: number };
          await new Promise((r) => setImmediate(r));
          await tx.put('payment', 'p', { n: p.n + 1 });
        }),
      ),
    );
    expect(await store.withTransaction('m', (tx) => tx.get('payment', 'p'))).toEqual({ n: 50 });
  });

  it('hands out copies, so callers cannot change stored state', async () => {
    const store = new MemoryStore();
    const value = { list: [1] };
    await store.withTransaction('m', (tx) => tx.put('customer', 'a', value));
    value.list.push(2);
    const read = (await store.withTransaction('m', (tx) => tx.get<{ list: number[] }>('customer', 'a'))) as { list: number[] };
    read.list.push(3);
    expect(await store.withTransaction('m', (tx) => tx.get('customer', 'a'))).toEqual({ list: [1] });
  });

  it('lists in insertion order and resets one merchant', async () => {
    const store = new MemoryStore();
    await store.withTransaction('m', async (tx) => {
      for (const id of ['c', 'a', 'b']) await tx.put('event', id, { id });
    });
    expect(await store.withTransaction('m', (tx) => tx.list('event'))).toEqual([{ id: 'c' }, { id: 'a' }, { id: 'b' }]);
    expect(await store.resetMerchant('m')).toBe(3);
    expect(await store.withTransaction('m', (tx) => tx.list('event'))).toEqual([]);
  });
});
