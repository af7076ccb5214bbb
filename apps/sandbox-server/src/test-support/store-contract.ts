import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_UNITS, fromUnits } from '../domain/money.js';
import { acceptedUnits } from './money-arbitraries.js';
import { merchantRecord } from './merchant-record.js';
import { MerchantChanged, UniqueViolation, type MerchantRecord, type Store, type Tx } from '../store/types.js';

const merchant = (id: string, offset = 0) => merchantRecord(id, { clock_offset_seconds: offset });

/**
 * Resolves once `done` settles or `queued()` says a transaction waits for the merchant, whichever
 * comes first: how a test lets a transaction go on only when the one it races is either finished
 * or provably waiting for it, so an order is shown without timing anything.
 */
async function finishedOrQueued(done: Promise<unknown>, queued: () => Promise<boolean>): Promise<void> {
  let finished = false;
  void done.then(
    () => (finished = true),
    () => (finished = true),
  );
  while (!finished && !(await queued())) await new Promise((r) => setImmediate(r));
}

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => undefined;
  const promise = new Promise<void>((r) => (fire = r));
  return { promise, fire };
}

/** A payment as the ordering tests write it: every one under one subscription, so `newestBy` reads them all. */
interface Payment {
  id: string;
  subscription_id: string;
  v: number;
}

/**
 * Every read in insertion order answers `expected` (payments, oldest first): `list`, the first
 * `limit` of `listEntries`, and the last `limit` of `newest` and `newestBy`, newest first.
 * PostgreSQL numbers a record when it inserts it (records.seq, migration 1) and keeps the number
 * when an upsert updates it (postgres-sql.ts, UPSERT): a record's place is where it was last put
 * while absent, and every store orders its reads so (types.ts, `Tx.list`).
 */
async function expectInsertionOrder(tx: Tx, expected: Payment[], limit = expected.length + 1): Promise<void> {
  const newest = expected.slice(-limit).reverse();
  expect(await tx.list('payment')).toEqual(expected);
  expect((await tx.listEntries<Payment>('payment', limit)).map((e) => e.data)).toEqual(expected.slice(0, limit));
  expect(await tx.newest('payment', limit)).toEqual({ total: expected.length, items: newest });
  expect(await tx.newestBy('payment', 'subscription_id', ['sub'], limit)).toEqual([newest]);
}

/**
 * The behaviour every Store must have; the memory store and PostgreSQL both run it.
 * `open` gives a fresh, empty store; `queued(store, merchantId)` is true once a transaction of
 * the merchant waits for another (asked of the store's own lock table, never timed).
 */
export function storeContract(name: string, open: () => Promise<Store>, queued: (store: Store, merchantId: string) => Promise<boolean>) {
describe(`${name}: the store contract`, () => {
  it('commits all writes of a transaction or none', async () => {
    const store = await open();
    await expect(
      store.withTransaction('m', async (tx) => {
        await tx.put('customer', 'a', { n: 1 });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.withTransaction('m', (tx) => tx.get('customer', 'a'))).toBeUndefined();
  });

  it('lets a transaction read its own writes and deletes', async () => {
    const store = await open();
    await store.withTransaction('m', async (tx) => {
      await tx.put('customer', 'a', { n: 1 });
      expect(await tx.get('customer', 'a')).toEqual({ n: 1 });
      await tx.delete('customer', 'a');
      expect(await tx.get('customer', 'a')).toBeUndefined();
      expect(await tx.list('customer')).toEqual([]);
    });
  });

  it('enforces unique keys within a merchant, not across merchants', async () => {
    const store = await open();
    await store.withTransaction('m1', (tx) => tx.put('customer', 'a', {}, 'ext-1'));
    await expect(store.withTransaction('m1', (tx) => tx.put('customer', 'b', {}, 'ext-1'))).rejects.toBeInstanceOf(UniqueViolation);
    await store.withTransaction('m2', (tx) => tx.put('customer', 'b', {}, 'ext-1'));
    expect(await store.withTransaction('m1', (tx) => tx.getByUniqueKey('customer', 'ext-1'))).toEqual({});
  });

  it('runs the transactions that read one record one at a time', async () => {
    const store = await open();
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

  it('lets one of many transactions create a record they all found absent, and one at a time take a named lock', async () => {
    const store = await open();
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.withTransaction('m', async (tx) => {
          if (await tx.get('idempotency', 'key')) return false;
          await new Promise((r) => setImmediate(r));
          await tx.put('idempotency', 'key', { by: i });
          return true;
        }),
      ),
    );
    expect(created.filter(Boolean)).toHaveLength(1);
    // A rule over a set of records (at most one webhook): the named lock makes list-then-put one step.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.withTransaction('m', async (tx) => {
          await tx.lock('webhooks');
          if ((await tx.list('webhook')).length > 0) return;
          await new Promise((r) => setImmediate(r));
          await tx.put('webhook', `w${i}`, { i });
        }),
      ),
    );
    expect(await store.withTransaction('m', (tx) => tx.list('webhook'))).toHaveLength(1);
  });

  it('hands each due record to one of the transactions listing it at once', async () => {
    const store = await open();
    const at = (ms: number) => new Date(ms).toISOString();
    await store.withTransaction('due', async (tx) => {
      for (let i = 0; i < 10; i += 1) await tx.put('webhook_delivery', `d${i}`, { id: `d${i}`, state: 'pending', next_attempt_at: at(1000 + i), created_at: at(0) });
    });
    const taken = await Promise.all(
      Array.from({ length: 4 }, () =>
        store.withTransaction('due', async (tx) => {
          const due = await tx.listDue<{ id: string }>('webhook_delivery', 'clock', 5000, 10);
          await new Promise((r) => setImmediate(r));
          for (const d of due) await tx.put('webhook_delivery', d.id, { ...d, state: 'delivered', next_attempt_at: null });
          return due.map((d) => d.id);
        }),
      ),
    );
    expect(taken.flat().sort()).toEqual(Array.from({ length: 10 }, (_, i) => `d${i}`).sort());
  });

  it('keeps ids, keys and data with quotes, backslashes and any text exactly as given', async () => {
    const store = await open();
    const id = "it's \\ a 'quoted'; DROP TABLE records; --";
    const key = "k'\\'; --\u001f\u00e9";
    const data = { text: "O'Brien \\ \"x\" ; -- \u0000 \u2028 ☃", n: 1.5 };
    await store.withTransaction(id, async (tx) => {
      await tx.put('customer', id, data, key);
      await tx.put('event', id, data);
    });
    expect(await store.withTransaction(id, (tx) => tx.get('customer', id))).toEqual(data);
    expect(await store.withTransaction(id, (tx) => tx.getByUniqueKey('customer', key))).toEqual(data);
    expect(await store.withTransaction(id, (tx) => tx.list('event'))).toEqual([data]);
    expect(await store.locate('customer', key)).toEqual({ merchantId: id, data });
  });

  it('hands out copies, so callers cannot change stored state', async () => {
    const store = await open();
    const value = { list: [1] };
    await store.withTransaction('m', (tx) => tx.put('customer', 'a', value));
    value.list.push(2);
    const read = (await store.withTransaction('m', (tx) => tx.get<{ list: number[] }>('customer', 'a'))) as { list: number[] };
    read.list.push(3);
    expect(await store.withTransaction('m', (tx) => tx.get('customer', 'a'))).toEqual({ list: [1] });
  });

  it('lists in insertion order and resets one merchant', async () => {
    const store = await open();
    await store.withTransaction('m', async (tx) => {
      for (const id of ['c', 'a', 'b']) await tx.put('event', id, { id });
    });
    expect(await store.withTransaction('m', (tx) => tx.list('event'))).toEqual([{ id: 'c' }, { id: 'a' }, { id: 'b' }]);
    expect(await store.resetMerchant('m')).toBe(3);
    expect(await store.withTransaction('m', (tx) => tx.list('event'))).toEqual([]);
  });

  it('keeps merchants: by id, by public key, updated atomically, seeded only once', async () => {
    const store = await open();
    expect(await store.putMerchantIfAbsent(merchant('m1'))).toBe(true);
    expect(await store.putMerchantIfAbsent({ ...merchant('m1'), name: 'second' })).toBe(false);
    // Another id with a key already taken is present too: nobody's keys are ever overwritten.
    expect(await store.putMerchantIfAbsent({ ...merchant('m2'), public_api_key: 'pk_m1' })).toBe(false);
    expect(await store.getMerchant('m2')).toBeUndefined();
    expect((await store.getMerchant('m1'))?.name).toBe('m1');
    // Of many at once with one id, exactly one is stored (two seeded replicas on one database).
    const raced = await Promise.all(Array.from({ length: 5 }, (_, i) => store.putMerchantIfAbsent({ ...merchant('m3'), name: `racer ${i}` })));
    expect(raced.filter(Boolean)).toHaveLength(1);
    expect((await store.findMerchantByPublicKey('pk_m1'))?.id).toBe('m1');
    await Promise.all(Array.from({ length: 20 }, () => store.updateMerchant('m1', (m) => ({ ...m, clock_offset_seconds: m.clock_offset_seconds + 1 }))));
    expect((await store.getMerchant('m1'))?.clock_offset_seconds).toBe(20);
    expect(await store.updateMerchant('nobody', (m) => m)).toBeUndefined();
    expect(await store.listMerchantIds()).toContain('m1');
  });

  it('runs a checked transaction on a current merchant record, and writes nothing of one on a record changed since it was read', async () => {
    const store = await open();
    await store.putMerchantIfAbsent(merchant('mc'));
    const read = (await store.findMerchantByPublicKey('pk_mc')) as MerchantRecord;
    let current = 0;
    const passed = () => (current += 1);
    // Write-only: on PostgreSQL the check travels in the one message that also carries COMMIT.
    const writeOnly = (id: string) => async (tx: Tx) => {
      await tx.create('customer', id, { id }, `key-${id}`);
      await tx.put('event', `e-${id}`, { id });
      return id;
    };
    expect(await store.withCheckedTransaction(read, writeOnly('c1'), passed)).toBe('c1');
    expect(current).toBe(1);

    await store.updateMerchant('mc', (m) => ({ ...m, clock_offset_seconds: 60 }));
    await expect(store.withCheckedTransaction(read, writeOnly('c2'), passed)).rejects.toBeInstanceOf(MerchantChanged);
    await expect(store.withCheckedTransaction(read, (tx) => tx.get('customer', 'c1'), passed)).rejects.toBeInstanceOf(MerchantChanged);
    expect(current).toBe(1);
    expect(await store.withTransaction('mc', (tx) => tx.list('customer'))).toEqual([{ id: 'c1' }]);
    expect(await store.withTransaction('mc', (tx) => tx.list('event'))).toEqual([{ id: 'c1' }]);

    // The record as the store has it now (read again, or as the change returned it) passes.
    const again = (await store.getMerchant('mc')) as MerchantRecord;
    expect(await store.withCheckedTransaction(again, writeOnly('c2'), passed)).toBe('c2');
    const changed = (await store.updateMerchant('mc', (m) => ({ ...m, clock_offset_seconds: 120 }))) as MerchantRecord;
    expect(await store.withCheckedTransaction(changed, (tx) => tx.get('customer', 'c2'), passed)).toEqual({ id: 'c2' });
    // A change that changes nothing leaves a record read before it current.
    await store.updateMerchant('mc', (m) => m);
    expect(await store.withCheckedTransaction(changed, (tx) => tx.get('customer', 'c1'), passed)).toEqual({ id: 'c1' });
    expect(current).toBe(4);
  });

  // A secret key's rotation (app/sandbox.ts) is a change of the merchant like a clock advance:
  // a record read before it must not act, so the request reads the merchant again and is refused.
  it('answers a rotated secret key by public key at once, and writes nothing of a checked transaction on the record from before', async () => {
    const store = await open();
    await store.putMerchantIfAbsent(merchant('mk'));
    const before = (await store.findMerchantByPublicKey('pk_mk')) as MerchantRecord;
    const rotated = (await store.updateMerchant('mk', (m) => ({ ...m, secret_key_digest: 'digest_rotated' }))) as MerchantRecord;
    expect(rotated.secret_key_digest).toBe('digest_rotated');
    expect((await store.findMerchantByPublicKey('pk_mk'))?.secret_key_digest).toBe('digest_rotated');
    expect((await store.getMerchant('mk'))?.secret_key_digest).toBe('digest_rotated');
    await expect(store.withCheckedTransaction(before, (tx) => tx.put('customer', 'late', { id: 'late' }), () => undefined)).rejects.toBeInstanceOf(MerchantChanged);
    expect(await store.withCheckedTransaction(rotated, (tx) => tx.get('customer', 'late'), () => undefined)).toBeUndefined();
  });

  it('checks a merchant record against a change queued before its transaction', async () => {
    const store = await open();
    await store.putMerchantIfAbsent(merchant('mw'));
    const read = (await store.findMerchantByPublicKey('pk_mw')) as MerchantRecord;
    const opened = signal();
    const release = signal();
    const alone = store.withTransactionAlone('mw', async (tx) => {
      await tx.get('customer', 'x');
      opened.fire();
      await release.promise;
    });
    await opened.promise;
    // The change waits for the transaction alone; the checked one, begun after it, waits behind it and sees it.
    const update = store.updateMerchant('mw', (m) => ({ ...m, clock_offset_seconds: 5 }));
    await finishedOrQueued(update, () => queued(store, 'mw'));
    const checked = store.withCheckedTransaction(read, (tx) => tx.put('customer', 'late', { id: 'late' }), () => undefined);
    release.fire();
    await alone;
    await update;
    await expect(checked).rejects.toBeInstanceOf(MerchantChanged);
    expect(await store.withTransaction('mw', (tx) => tx.get('customer', 'late'))).toBeUndefined();
  });

  it('locates a record by unique key across merchants', async () => {
    const store = await open();
    await store.withTransaction('m2', (tx) => tx.put('payment_link', 'l1', { code: 'abc' }, 'abc'));
    expect(await store.locate('payment_link', 'abc')).toEqual({ merchantId: 'm2', data: { code: 'abc' } });
    expect(await store.locate('payment_link', 'nope')).toBeUndefined();
  });

  it('creates a record under a free unique key, and fails the whole transaction on a taken one', async () => {
    const store = await open();
    await store.withTransaction('m4', async (tx) => {
      await tx.create('customer', 'a', { n: 1 }, 'k');
      await tx.put('event', 'e1', { of: 'a' });
      // The transaction's own reads see the create before it is sent.
      expect(await tx.get('customer', 'a')).toEqual({ n: 1 });
    });
    const taken = store.withTransaction('m4', async (tx) => {
      await tx.create('customer', 'b', { n: 2 }, 'k');
      await tx.put('event', 'e2', { of: 'b' });
    });
    await expect(taken).rejects.toEqual(new UniqueViolation('customer', 'k'));
    // Nothing of the failed transaction was kept, its event neither.
    expect(await store.withTransaction('m4', async (tx) => [await tx.list('customer'), await tx.list('event')])).toEqual([[{ n: 1 }], [{ of: 'a' }]]);
    // A read of the kind checks a held-back create at once: the violation is the read's.
    await expect(store.withTransaction('m4', async (tx) => {
      await tx.create('customer', 'c', { n: 3 }, 'k');
      await tx.getByUniqueKey('customer', 'other');
    })).rejects.toBeInstanceOf(UniqueViolation);
  });

  it('fails a create where the store checks it: at a read of its kind or at the commit, never at the create itself', async () => {
    const store = await open();
    await store.withTransaction('m6', (tx) => tx.put('customer', 'a', { n: 1 }, 'k'));
    const calls: string[] = [];
    const failed = store.withTransaction('m6', async (tx) => {
      await tx.create('customer', 'b', { n: 2 }, 'k');
      calls.push('created');
      // Another kind: the create is not checked yet (the event ids a request makes here are made on both stores).
      await tx.put('event', 'e', { of: 'b' });
      calls.push('event');
    });
    await expect(failed).rejects.toEqual(new UniqueViolation('customer', 'k'));
    expect(calls).toEqual(['created', 'event']);
    // A create under an id already there replaces that record, as a put does.
    await store.withTransaction('m6', (tx) => tx.create('customer', 'a', { n: 3 }, 'k'));
    expect(await store.withTransaction('m6', (tx) => tx.list('customer'))).toEqual([{ n: 3 }]);
  });

  it('of two transactions creating under one key at once, commits one', async () => {
    const store = await open();
    const results = await Promise.allSettled(['x', 'y'].map((id) => store.withTransaction('m5', (tx) => tx.create('customer', id, { id }, 'same'))));
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: new UniqueViolation('customer', 'same') });
    expect(await store.withTransaction('m5', (tx) => tx.list('customer'))).toHaveLength(1);
  });

  it('keeps the transaction usable after a unique violation it caught', async () => {
    const store = await open();
    await store.withTransaction('m3', async (tx) => {
      await tx.put('customer', 'a', { n: 1 }, 'dup');
      await expect(tx.put('customer', 'b', { n: 2 }, 'dup')).rejects.toBeInstanceOf(UniqueViolation);
      await tx.put('customer', 'c', { n: 3 });
    });
    expect(await store.withTransaction('m3', (tx) => tx.list('customer'))).toEqual([{ n: 1 }, { n: 3 }]);
  });

  // Amounts are kept as unit counts and shown as major units; both must come back unchanged over
  // the whole accepted range (docs/sandbox-payments.md, "Money"). One record per run holds a batch of them.
  it('gives back every accepted amount exactly, as units and as major units', async () => {
    const store = await open();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(acceptedUnits(), { minLength: 1, maxLength: 50 }), async (units) => {
        const record = { amounts: units.map((u) => ({ amount_units: u, value: fromUnits(u) })) };
        const id = `money-${(run += 1)}`;
        await store.withTransaction('m-money', (tx) => tx.put('payment', id, record));
        expect(await store.withTransaction('m-money', (tx) => tx.get('payment', id))).toEqual(record);
      }),
      { numRuns: 40, examples: [[[1, MAX_UNITS, MAX_UNITS - 1]]] },
    );
  });

  it('finds due work through the index, earliest first, with the transaction\'s own writes', async () => {
    const store = await open();
    const at = (ms: number) => new Date(ms).toISOString();
    const pending = (id: string, nextMs: number) => ({ id, state: 'pending', next_attempt_at: at(nextMs), created_at: at(0) });
    await store.withTransaction('d', async (tx) => {
      await tx.put('webhook_delivery', 'late', pending('late', 3000));
      await tx.put('webhook_delivery', 'early', pending('early', 1000));
      await tx.put('webhook_delivery', 'done', { id: 'done', state: 'failed', next_attempt_at: null, created_at: at(0) });
      await tx.put('customer', 'c', { id: 'c', next_attempt_at: at(0) });
    });
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    expect(ids(await store.withTransaction('d', (tx) => tx.listDue<{ id: string }>('webhook_delivery', 'clock', 3000, 10)))).toEqual(['early', 'late']);
    expect(ids(await store.withTransaction('d', (tx) => tx.listDue<{ id: string }>('webhook_delivery', 'clock', 2999, 10)))).toEqual(['early']);
    expect(ids(await store.withTransaction('d', (tx) => tx.listDue<{ id: string }>('webhook_delivery', 'clock', 3000, 1)))).toEqual(['early']);
    expect(await store.withTransaction('d', (tx) => tx.listDue('customer', 'clock', 3000, 10))).toEqual([]);
    // A put moves a record in the index, seen by the same transaction, and a rollback undoes it.
    await expect(
      store.withTransaction('d', async (tx) => {
        await tx.put('webhook_delivery', 'early', pending('early', 5000));
        expect(ids(await tx.listDue<{ id: string }>('webhook_delivery', 'clock', 3000, 10))).toEqual(['late']);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(ids(await store.withTransaction('d', (tx) => tx.listDue<{ id: string }>('webhook_delivery', 'clock', 3000, 10)))).toEqual(['early', 'late']);
    // A finished delivery is due for retention 30 days after it was created.
    const retentionMs = 30 * 86400_000;
    expect(ids(await store.withTransaction('d', (tx) => tx.listDue<{ id: string }>('webhook_delivery', 'retention', retentionMs, 10)))).toEqual(['done']);
    expect(await store.withTransaction('d', (tx) => tx.listDue('webhook_delivery', 'retention', retentionMs - 1, 10))).toEqual([]);
    expect(await store.withTransaction('d', (tx) => tx.deleteDue('webhook_delivery', 'retention', retentionMs, 10))).toBe(1);
    expect(ids(await store.withTransaction('d', (tx) => tx.list<{ id: string }>('webhook_delivery')))).toEqual(['late', 'early']);
  });

  // PostgreSQL lists and deletes due work `ORDER BY due_at, seq` (postgres-tx.ts): equal times go
  // in insertion order (records.seq, numbered when a record is inserted and kept by an upsert),
  // whenever each record fell due. Pending deliveries are due on the clock at their next attempt.
  it('lists and deletes committed due work of one time in insertion order, not in the order the records fell due', async () => {
    const store = await open();
    const m = 'ties';
    const at = (ms: number) => new Date(ms).toISOString();
    const delivery = (id: string, nextMs: number | null) => ({ id, state: 'pending', next_attempt_at: nextMs === null ? null : at(nextMs), created_at: at(0) });
    const put = (id: string, nextMs: number | null) => store.withTransaction(m, (tx) => tx.put('webhook_delivery', id, delivery(id, nextMs)));
    const due = async (limit = 10) =>
      (await store.withTransaction(m, (tx) => tx.listDue<{ id: string }>('webhook_delivery', 'clock', 1000, limit))).map((d) => d.id);
    await store.withTransaction(m, async (tx) => {
      for (const [id, nextMs] of [['a', null], ['b', null], ['c', 1000], ['d', null], ['e', 500]] as const) await tx.put('webhook_delivery', id, delivery(id, nextMs));
    });
    // b, then a, fall due at c's time, each in a transaction of its own.
    await put('b', 1000);
    await put('a', 1000);
    expect(await due()).toEqual(['e', 'a', 'b', 'c']);
    expect(await due(2)).toEqual(['e', 'a']);
    expect(await store.withTransaction(m, (tx) => tx.deleteDue('webhook_delivery', 'clock', 1000, 2))).toBe(2);
    expect(await due()).toEqual(['b', 'c']);
    // Deleted, then put again in a later transaction: a new number, after every other record.
    await store.withTransaction(m, (tx) => tx.delete('webhook_delivery', 'b'));
    await put('b', 1000);
    await put('d', 1000);
    expect(await due()).toEqual(['c', 'd', 'b']);
    expect(await store.withTransaction(m, (tx) => tx.deleteDue('webhook_delivery', 'clock', 1000, 2))).toBe(2);
    expect(await due()).toEqual(['b']);
    // Many records put and deleted around two others: the two keep their order however the store
    // compacts what it keeps, also for one that falls due only afterwards.
    const fillers = Array.from({ length: 40 }, (_, i) => `f${i}`);
    await store.withTransaction(m, async (tx) => {
      for (const id of fillers) await tx.put('webhook_delivery', id, delivery(id, null));
      await tx.put('webhook_delivery', 'x', delivery('x', 1000));
      await tx.put('webhook_delivery', 'y', delivery('y', null));
    });
    await store.withTransaction(m, async (tx) => {
      for (const id of fillers) await tx.delete('webhook_delivery', id);
    });
    await put('y', 1000);
    expect(await due()).toEqual(['b', 'x', 'y']);
  });

  it('lists and deletes due work of one time in insertion order within a transaction: an update keeps its place, an insert comes after every committed record', async () => {
    const store = await open();
    const m = 'ties-tx';
    const at = (ms: number) => new Date(ms).toISOString();
    const delivery = (id: string, nextMs: number | null, attempts = 0) => ({ id, state: 'pending', next_attempt_at: nextMs === null ? null : at(nextMs), created_at: at(0), attempts });
    const due = async (tx: Tx) => (await tx.listDue<{ id: string }>('webhook_delivery', 'clock', 1000, 10)).map((d) => d.id);
    await store.withTransaction(m, async (tx) => {
      for (const [id, nextMs] of [['a', 1000], ['b', 1000], ['c', 1000], ['d', null], ['e', 500]] as const) await tx.put('webhook_delivery', id, delivery(id, nextMs));
    });
    await store.withTransaction(m, async (tx) => {
      // New, then a committed record falling due here, then an update: the update keeps its place.
      await tx.put('webhook_delivery', 'f', delivery('f', 1000));
      await tx.put('webhook_delivery', 'd', delivery('d', 1000));
      await tx.put('webhook_delivery', 'b', delivery('b', 1000, 1));
      expect(await due(tx)).toEqual(['e', 'a', 'b', 'c', 'd', 'f']);
      // Deleted and put again: a new number, after the one inserted before it.
      await tx.delete('webhook_delivery', 'a');
      await tx.put('webhook_delivery', 'a', delivery('a', 1000));
      expect(await due(tx)).toEqual(['e', 'b', 'c', 'd', 'f', 'a']);
      expect(await tx.deleteDue('webhook_delivery', 'clock', 1000, 3)).toBe(3);
      expect(await due(tx)).toEqual(['d', 'f', 'a']);
      // Taken as due work and put again: after every other.
      await tx.put('webhook_delivery', 'c', delivery('c', 1000));
      expect(await due(tx)).toEqual(['d', 'f', 'a', 'c']);
    });
    expect(await store.withTransaction(m, due)).toEqual(['d', 'f', 'a', 'c']);
    expect(await store.withTransaction(m, (tx) => tx.deleteDue('webhook_delivery', 'clock', 1000, 2))).toBe(2);
    expect(await store.withTransaction(m, due)).toEqual(['a', 'c']);
  });

  it('lists entries with their ids and unique keys, in insertion order, up to a limit, with the transaction\'s own writes', async () => {
    const store = await open();
    await store.withTransaction('e', async (tx) => {
      await tx.put('customer', 'b', { n: 1 }, 'ext-b');
      await tx.put('customer', 'a', { n: 2 });
    });
    const entries = await store.withTransaction('e', async (tx) => {
      await tx.put('customer', 'c', { n: 3 }, 'ext-c');
      await tx.put('customer', 'b', { n: 4 }, 'ext-b2');
      return tx.listEntries('customer', 10);
    });
    expect(entries).toEqual([
      { id: 'b', unique_key: 'ext-b2', data: { n: 4 } },
      { id: 'a', unique_key: null, data: { n: 2 } },
      { id: 'c', unique_key: 'ext-c', data: { n: 3 } },
    ]);
    expect(await store.withTransaction('e', (tx) => tx.listEntries('customer', 2))).toHaveLength(2);
    expect(await store.withTransaction('other', (tx) => tx.listEntries('customer', 10))).toEqual([]);
  });

  it('places a record where it was last put while absent: a put or create over it keeps its place, a delete and a put or create again moves it to the end', async () => {
    const store = await open();
    const m = 'order';
    const payment = (id: string, v = 0): Payment => ({ id, subscription_id: 'sub', v });
    await store.withTransaction(m, async (tx) => {
      for (const id of ['a', 'b', 'c', 'd', 'e']) await tx.put('payment', id, payment(id));
    });
    const expected = ['b', 'c', 'd', 'a', 'y', 'x', 'e'].map((id) => payment(id, 1));
    await store.withTransaction(m, async (tx) => {
      // Updates: a put, a put under a unique key, a create.
      await tx.put('payment', 'b', payment('b', 1));
      await tx.put('payment', 'c', payment('c', 1), 'key-c');
      await tx.create('payment', 'd', payment('d', 1), 'key-d');
      // Deleted and put again: to the end.
      await tx.delete('payment', 'a');
      await tx.put('payment', 'a', payment('a', 1));
      // New, deleted, and put again after another new one: after that one.
      await tx.put('payment', 'x', payment('x', 1));
      await tx.delete('payment', 'x');
      await tx.put('payment', 'y', payment('y', 1));
      await tx.put('payment', 'x', payment('x', 1));
      // Deleted and created again: to the end.
      await tx.delete('payment', 'e');
      await tx.create('payment', 'e', payment('e', 1), 'key-e');
      await expectInsertionOrder(tx, expected);
      // Its key finds it again.
      expect(await tx.getByUniqueKey('payment', 'key-e')).toEqual(payment('e', 1));
    });
    await store.withTransaction(m, (tx) => expectInsertionOrder(tx, expected));
    expect(await store.withTransaction(m, (tx) => tx.getByUniqueKey('payment', 'key-e'))).toEqual(payment('e', 1));
    // Deleted in one transaction and put in a later one: to the end.
    await store.withTransaction(m, (tx) => tx.delete('payment', 'c'));
    await store.withTransaction(m, (tx) => tx.put('payment', 'c', payment('c', 1)));
    await store.withTransaction(m, (tx) => expectInsertionOrder(tx, ['b', 'd', 'a', 'y', 'x', 'e', 'c'].map((id) => payment(id, 1))));
    // Put again without its key: the key is free, and another record takes it.
    expect(await store.withTransaction(m, (tx) => tx.getByUniqueKey('payment', 'key-c'))).toBeUndefined();
    await store.withTransaction(m, (tx) => tx.put('payment', 'z', payment('z', 1), 'key-c'));
    expect(await store.withTransaction(m, (tx) => tx.getByUniqueKey('payment', 'key-c'))).toEqual(payment('z', 1));
    // Deleted as due work (retention) and put again in the same transaction: to the end.
    const at = (ms: number) => new Date(ms).toISOString();
    // A finished delivery is due for retention; a pending one not yet tried has no due work.
    const delivery = (id: string, state: 'failed' | 'pending') => ({ id, state, next_attempt_at: null, created_at: at(0) });
    await store.withTransaction(m, async (tx) => {
      await tx.put('webhook_delivery', 'd1', delivery('d1', 'failed'));
      await tx.put('webhook_delivery', 'd2', delivery('d2', 'pending'));
    });
    const deliveries = [delivery('d2', 'pending'), delivery('d1', 'pending')];
    // Put again as pending, not yet tried: no due work in either lane.
    const noDueWork = async (tx: Tx) => {
      expect(await tx.listDue('webhook_delivery', 'retention', Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
      expect(await tx.listDue('webhook_delivery', 'clock', Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    };
    await store.withTransaction(m, async (tx) => {
      expect(await tx.deleteDue('webhook_delivery', 'retention', 30 * 86400_000, 10)).toBe(1);
      await tx.put('webhook_delivery', 'd1', delivery('d1', 'pending'));
      expect(await tx.list('webhook_delivery')).toEqual(deliveries);
      await noDueWork(tx);
    });
    expect(await store.withTransaction(m, (tx) => tx.list('webhook_delivery'))).toEqual(deliveries);
    await store.withTransaction(m, noDueWork);
  });

  // Random puts, creates, deletes and reads, several to a transaction: PostgreSQL sends held-back
  // inserts with the next read of their kind, so reads at other points change when rows are
  // numbered, never their order.
  it('answers every read in insertion order (list, entries, newest with the exact count, newest by field) as the records were last put while absent', async () => {
    const store = await open();
    type Op = { put: number } | { create: number } | { del: number } | { read: true };
    const n = fc.integer({ min: 0, max: 11 });
    const op = fc.oneof(fc.record({ put: n }), fc.record({ create: n }), fc.record({ del: n }), fc.constant({ read: true } as const));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { maxLength: 12 }), fc.integer({ min: 1, max: 14 }), async (transactions: Op[][], limit) => {
        const m = `newest-${(run += 1)}`;
        /** The records in insertion order: a put or create of an absent record appends it, of a present one replaces it in place. */
        let model: Payment[] = [];
        let v = 0;
        for (const ops of transactions) {
          await store.withTransaction(m, async (tx) => {
            for (const o of ops) {
              if ('read' in o) await expectInsertionOrder(tx, model, limit);
              else if ('del' in o) {
                await tx.delete('payment', `p${o.del}`);
                model = model.filter((r) => r.id !== `p${o.del}`);
              } else {
                const record: Payment = { id: `p${'put' in o ? o.put : o.create}`, subscription_id: 'sub', v: (v += 1) };
                if ('put' in o) await tx.put('payment', record.id, record);
                else await tx.create('payment', record.id, record, `key-${record.id}`);
                const place = model.findIndex((r) => r.id === record.id);
                if (place >= 0) model[place] = record;
                else model.push(record);
              }
            }
          });
        }
        await store.withTransaction(m, (tx) => expectInsertionOrder(tx, model, limit));
      }),
      { numRuns: 25 },
    );
  });

  it("answers the newest with the transaction's own puts and deletes, of its merchant and kind only", async () => {
    const store = await open();
    await store.withTransaction('n', async (tx) => {
      for (const id of ['a', 'b', 'c', 'd']) await tx.put('payment', id, { id });
      await tx.put('customer', 'x', { id: 'x' });
    });
    await store.withTransaction('other', (tx) => tx.put('payment', 'z', { id: 'z' }));
    await store.withTransaction('n', async (tx) => {
      await tx.put('payment', 'e', { id: 'e' });
      await tx.put('payment', 'b', { id: 'b', changed: true });
      await tx.delete('payment', 'd');
      expect(await tx.newest('payment', 3)).toEqual({ total: 4, items: [{ id: 'e' }, { id: 'c' }, { id: 'b', changed: true }] });
    });
    expect(await store.withTransaction('n', (tx) => tx.newest('payment', 10))).toEqual({ total: 4, items: [{ id: 'e' }, { id: 'c' }, { id: 'b', changed: true }, { id: 'a' }] });
    expect(await store.withTransaction('empty', (tx) => tx.newest('payment', 10))).toEqual({ total: 0, items: [] });
  });

  it('answers the newest records holding each value of an indexed field, with the transaction\'s own writes', async () => {
    const store = await open();
    const payment = (id: string, subscription: string | null) => ({ id, subscription_id: subscription });
    await store.withTransaction('by', async (tx) => {
      for (let i = 0; i < 6; i += 1) await tx.put('payment', `p${i}`, payment(`p${i}`, i % 2 === 0 ? 'sub-even' : 'sub-odd'));
      await tx.put('payment', 'none', payment('none', null));
      // Another kind with the same field is not indexed for payments.
      await tx.put('event', 'e', payment('e', 'sub-even'));
    });
    await store.withTransaction('other', (tx) => tx.put('payment', 'theirs', payment('theirs', 'sub-even')));
    const ids = (lists: { id: string }[][]) => lists.map((l) => l.map((p) => p.id));
    expect(ids(await store.withTransaction('by', (tx) => tx.newestBy<{ id: string }>('payment', 'subscription_id', ['sub-odd', 'sub-even', 'sub-none'], 2)))).toEqual([
      ['p5', 'p3'],
      ['p4', 'p2'],
      [],
    ]);
    expect(await store.withTransaction('by', (tx) => tx.newestBy('payment', 'subscription_id', [], 2))).toEqual([]);
    await store.withTransaction('by', async (tx) => {
      await tx.put('payment', 'p6', payment('p6', 'sub-even'));
      await tx.delete('payment', 'p4');
      await tx.put('payment', 'p2', { ...payment('p2', 'sub-even'), changed: true });
      expect(await tx.newestBy('payment', 'subscription_id', ['sub-even'], 3)).toEqual([[payment('p6', 'sub-even'), { ...payment('p2', 'sub-even'), changed: true }, payment('p0', 'sub-even')]]);
    });
    // Deleted records leave the index; enough of them that the memory store rebuilds its lists.
    await store.withTransaction('by', async (tx) => {
      for (let i = 0; i < 60; i += 1) await tx.put('payment', `q${i}`, payment(`q${i}`, 'sub-many'));
    });
    await store.withTransaction('by', async (tx) => {
      for (let i = 0; i < 60; i += 1) if (i % 10 !== 0) await tx.delete('payment', `q${i}`);
    });
    expect(ids(await store.withTransaction('by', (tx) => tx.newestBy<{ id: string }>('payment', 'subscription_id', ['sub-many'], 10)))).toEqual([['q50', 'q40', 'q30', 'q20', 'q10', 'q0']]);
    expect(ids((await store.withTransaction('by', (tx) => tx.newest<{ id: string }>('payment', 2))).items.map((p) => [p])).flat()).toEqual(['q50', 'q40']);
  });

  // A snapshot's export reads kind after kind: a transaction committing between two of its reads
  // would give records that never existed together (docs/sandbox-testing.md, "Snapshots").
  it('runs a transaction alone: after the open ones of the merchant, seeing all of each', async () => {
    const store = await open();
    const m = `alone-${randomUUID()}`;
    const opened = signal();
    const release = signal();
    const writer = store.withTransaction(m, async (tx) => {
      await tx.get('customer', 'c');
      await tx.put('customer', 'c', { id: 'c' });
      await tx.put('payment', 'p', { id: 'p', customer: 'c' });
      opened.fire();
      await release.promise;
    });
    await opened.promise;
    const firstRead = signal();
    const reader = store.withTransactionAlone(m, async (tx) => {
      const customers = await tx.listEntries('customer', 10);
      firstRead.fire();
      // Were the writer still open here, it would commit before the next read.
      await writer;
      return { customers: customers.length, payments: (await tx.listEntries('payment', 10)).length };
    });
    await finishedOrQueued(firstRead.promise, () => queued(store, m));
    release.fire();
    expect(await reader).toEqual({ customers: 1, payments: 1 });
  });

  it('makes transactions begun while one runs alone wait for it, alone or not', async () => {
    const store = await open();
    for (const alone of [false, true]) {
      const m = `alone-${randomUUID()}`;
      const opened = signal();
      const release = signal();
      const reader = store.withTransactionAlone(m, async (tx) => {
        await tx.listEntries('customer', 10);
        opened.fire();
        await release.promise;
        return { customers: (await tx.listEntries('customer', 10)).length, payments: (await tx.listEntries('payment', 10)).length };
      });
      await opened.promise;
      const write = async (tx: Tx) => {
        await tx.get('customer', 'c');
        await tx.put('customer', 'c', { id: 'c' });
        await tx.put('payment', 'p', { id: 'p' });
      };
      const writer = alone ? store.withTransactionAlone(m, write) : store.withTransaction(m, write);
      await finishedOrQueued(writer, () => queued(store, m));
      release.fire();
      expect(await reader).toEqual({ customers: 0, payments: 0 });
      await writer;
      expect(await store.withTransaction(m, (tx) => tx.list('payment'))).toEqual([{ id: 'p' }]);
    }
  });

  it('answers ready', async () => {
    expect(await (await open()).ready()).toBe(true);
  });
});
}
