import { isDeepStrictEqual } from 'node:util';
import { SecretKeyDigests, generatePepper } from '../runtime/secret-keys.js';
import { dueOf, type Due, type DueLane } from '../domain/due-work.js';
import { InsertionOrder } from './insertion-order.js';
import { KeyedMutex } from '../runtime/mutex.js';
import { INDEXED_FIELDS, MerchantChanged, PUBLIC_HANDLE_KINDS, UniqueViolation, type MerchantRecord, type RecordKind, type Store, type StoredEntry, type Tx } from './types.js';

/**
 * A write staged in a transaction: the record's JSON text, its unique key, its due work and its
 * index keys, if any, and whether it is inserted: absent when the transaction first put it (never
 * committed, or deleted by the transaction before), so it takes a new place in insertion order,
 * its place among the transaction's writes. A record present when put keeps its place.
 */
interface Staged {
  json: string;
  unique_key: string | undefined;
  due: Due | null;
  indexed: string[];
  inserted: boolean;
}

/** What a transaction stages for a put or a create of `value`. */
const stagedRecord = (kind: RecordKind, value: unknown, uniqueKey: string | undefined, inserted: boolean): Staged => ({
  json: serialize(value),
  unique_key: uniqueKey,
  due: dueOf(kind, value),
  indexed: indexKeysOf(kind, value),
  inserted,
});

/**
 * What a committed record's place in insertion order holds for a transaction that staged
 * `changes`: its committed text (`json`), its staged update, or nothing once the transaction
 * deleted it or inserted it again (then it is at its new place, among the inserted).
 */
function atCommittedPlace(changes: Map<string, Staged | null> | undefined, id: string, json: string | undefined): string | undefined {
  const staged = changes?.get(id);
  if (staged === undefined) return json;
  return staged === null || staged.inserted ? undefined : staged.json;
}

/** The key of one value of one indexed field (`INDEXED_FIELDS`). */
const indexKey = (field: string, value: string) => `${field}\u001f${value}`;

/** The index keys of a record: one per indexed field of its kind that holds a string. */
function indexKeysOf(kind: RecordKind, value: unknown): string[] {
  const fields: readonly string[] = (INDEXED_FIELDS as Partial<Record<RecordKind, readonly string[]>>)[kind] ?? [];
  const keys: string[] = [];
  for (const field of fields) {
    const held = (value as Record<string, unknown> | null)?.[field];
    if (typeof held === 'string') keys.push(indexKey(field, held));
  }
  return keys;
}

/**
 * A committed record's due work and its place: its position in its table's `order`. Equal times
 * go in that order, as PostgreSQL's `ORDER BY due_at, seq` puts them (postgres-tx.ts): by where
 * each record was last put while absent, not by when it fell due. Kept for records with due work
 * only, one field (a small integer) more than the `Due` it replaces: 8 bytes more a record with
 * due work (measured on Node 20), none for a record without.
 */
interface DueEntry {
  lane: DueLane;
  at: number;
  place: number;
}

/**
 * One kind of record of one merchant: each record's JSON text by id, in insertion order, the
 * unique keys both ways (only records that have one pay for the second map), when each record
 * with due work is due, and its place (only those records are in it, so finding due work reads
 * no others), the insertion order again, readable from the newest end, and the ids holding each
 * value of an indexed field, with the index keys of each record that has some.
 */
interface KindTable {
  records: Map<string, string>;
  unique: Map<string, string>;
  uniqueOf: Map<string, string>;
  due: Map<string, DueEntry>;
  order: InsertionOrder;
  indexed: Map<string, InsertionOrder>;
  indexedOf: Map<string, string[]>;
}
type MerchantTables = Map<RecordKind, KindTable>;

/**
 * Records are kept as JSON text: as compact as the data itself (about one byte a character), and
 * every read parses a fresh copy, so callers can never change stored state through a reference.
 * It also keeps exactly what PostgreSQL keeps (undefined fields dropped, key order preserved).
 */
function serialize(value: unknown): string {
  const json = JSON.stringify(value);
  // V8 builds JSON.stringify's result as a rope of chunks; reading one character flattens it into
  // one string, which for a stored customer is about 190 bytes smaller than the rope it replaces
  // (measured with a live-heap count over 100,000 records).
  json.charCodeAt(0);
  return json;
}
const parse = <T>(json: string): T => JSON.parse(json) as T;

function tableOf(tables: MerchantTables, kind: RecordKind): KindTable {
  let table = tables.get(kind);
  if (!table) {
    table = { records: new Map(), unique: new Map(), uniqueOf: new Map(), due: new Map(), order: new InsertionOrder(), indexed: new Map(), indexedOf: new Map() };
    tables.set(kind, table);
  }
  return table;
}

/** Forgets which record held the unique key `id` held, unless another record of the same commit took it already. */
function dropUniqueKey(table: KindTable, id: string): void {
  const key = table.uniqueOf.get(id);
  if (key === undefined) return;
  if (table.unique.get(key) === id) table.unique.delete(key);
  table.uniqueOf.delete(id);
}

/** Commits the deletion of a committed record: it leaves the insertion order and every index. */
function removeRecord(table: KindTable, id: string): void {
  dropUniqueKey(table, id);
  table.due.delete(id);
  table.records.delete(id);
  table.order.leave(
    (member) => table.records.has(member),
    (member, place) => {
      const due = table.due.get(member);
      if (due) due.place = place;
    },
  );
  reindex(table, id, []);
}

/** Commits a staged record: an update keeps its place, a record not committed yet joins at the end. */
function writeRecord(table: KindTable, id: string, rec: Staged): void {
  dropUniqueKey(table, id);
  const joined = table.records.has(id) ? undefined : table.order.join(id);
  keepDue(table, id, rec.due, joined);
  table.records.set(id, rec.json);
  if (rec.unique_key !== undefined) {
    table.unique.set(rec.unique_key, id);
    table.uniqueOf.set(id, rec.unique_key);
  }
  reindex(table, id, rec.indexed);
}

/**
 * Keeps a committed record's due work (none: it leaves the due map) with its place: `joined`, for
 * a record that has just joined the insertion order; the entry's own, for one that had due work;
 * for one falling due now, its position looked up from the newest end, where a record put moments
 * ago (an idempotency key completing its request) is found at once.
 */
function keepDue(table: KindTable, id: string, due: Due | null, joined: number | undefined): void {
  if (!due) {
    table.due.delete(id);
    return;
  }
  const held = table.due.get(id);
  if (held) {
    held.lane = due.lane;
    held.at = due.at;
  } else table.due.set(id, { lane: due.lane, at: due.at, place: joined ?? table.order.positionOf(id) });
}

/** Moves a committed record's id to the index lists of `keys` (its indexed values; none once deleted). */
function reindex(table: KindTable, id: string, keys: string[]): void {
  const before = table.indexedOf.get(id) ?? [];
  if (keys.length > 0) table.indexedOf.set(id, keys);
  else table.indexedOf.delete(id);
  for (const key of before) {
    if (keys.includes(key)) continue;
    const list = table.indexed.get(key) as InsertionOrder;
    list.leave((member) => table.indexedOf.get(member)?.includes(key) ?? false);
    if (list.size === 0) table.indexed.delete(key);
  }
  for (const key of keys) {
    if (before.includes(key)) continue;
    let list = table.indexed.get(key);
    if (!list) {
      list = new InsertionOrder();
      table.indexed.set(key, list);
    }
    list.join(id);
  }
}

/**
 * The embedded default store. Transactions of one merchant are serialised by a lock (more than
 * the Store contract asks: PostgreSQL runs those that touch different records side by side; one
 * process has no second core to run them on anyway) and write to
 * a private overlay that is applied only on commit, so a failed request leaves nothing behind
 * and readers never see half a change. Unique keys are indexed, so checks cost the same with a
 * million records as with ten. Values are deep-copied in and out: callers cannot mutate stored
 * state by accident.
 */
export class MemoryStore implements Store {
  /** Nothing outlives the process, so without a pepper given a random one does. */
  readonly secretKeys: SecretKeyDigests;
  private readonly merchants = new Map<string, MerchantRecord>();
  private readonly byPublicKey = new Map<string, string>();
  private readonly data = new Map<string, MerchantTables>();
  private readonly locks = new KeyedMutex();

  constructor(options: { secretKeyPepper?: string } = {}) {
    this.secretKeys = new SecretKeyDigests(options.secretKeyPepper ?? generatePepper());
  }

  async withTransaction<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.locks.run(merchantId, async () => {
      const tables = this.tablesOf(merchantId);
      /** Staged writes per kind: a record, or null for a delete. */
      const overlay = new Map<RecordKind, Map<string, Staged | null>>();
      const staged = (kind: RecordKind) => {
        let m = overlay.get(kind);
        if (!m) {
          m = new Map();
          overlay.set(kind, m);
        }
        return m;
      };
      const read = (kind: RecordKind, id: string): string | undefined => {
        const s = overlay.get(kind)?.get(id);
        if (s !== undefined) return s?.json;
        return tables.get(kind)?.records.get(id);
      };
      const uniqueKeyOf = (kind: RecordKind, id: string): string | undefined => {
        const s = overlay.get(kind)?.get(id);
        if (s !== undefined) return s?.unique_key;
        return tables.get(kind)?.uniqueOf.get(id);
      };
      const byUnique = (kind: RecordKind, uniqueKey: string): { id: string; json: string } | undefined => {
        for (const [id, rec] of overlay.get(kind) ?? []) if (rec?.unique_key === uniqueKey) return { id, json: rec.json };
        const id = tables.get(kind)?.unique.get(uniqueKey);
        if (id === undefined || uniqueKeyOf(kind, id) !== uniqueKey) return undefined;
        const json = read(kind, id);
        return json === undefined ? undefined : { id, json };
      };
      /**
       * Ids of the records due in `lane` by `untilMs`, earliest first and equal times in insertion
       * order, from the committed index and this transaction's writes: an update keeps its
       * committed place, a record the transaction inserted comes after every committed one, in
       * the order it was put (as PostgreSQL numbers it when it inserts it).
       */
      const dueIds = (kind: RecordKind, lane: DueLane, untilMs: number, limit: number): string[] => {
        const changes = overlay.get(kind);
        const table = tables.get(kind);
        const found: { id: string; at: number; place: number }[] = [];
        for (const [id, due] of table?.due ?? []) if (due.lane === lane && due.at <= untilMs && !changes?.has(id)) found.push({ id, at: due.at, place: due.place });
        let next = table?.order.end ?? 0;
        for (const [id, rec] of changes ?? []) {
          const inserted = rec?.inserted ? next : undefined;
          if (inserted !== undefined) next += 1;
          if (!rec?.due || rec.due.lane !== lane || rec.due.at > untilMs) continue;
          // Not inserted: committed, so the table holds its place (its due entry's, or its position when it falls due in this transaction).
          const place = inserted ?? (table?.due.get(id)?.place ?? (table as KindTable).order.positionOf(id));
          found.push({ id, at: rec.due.at, place });
        }
        found.sort((a, b) => a.at - b.at || a.place - b.place);
        return found.slice(0, limit).map(({ id }) => id);
      };
      /** Creates whose key is not checked yet: checked where PostgreSQL sends them (postgres-tx.ts), so both stores fail at the same call. */
      let creates: { kind: RecordKind; id: string; uniqueKey: string }[] = [];
      /** Checks the held-back creates of `kind` (of every kind at the commit): another record holding the key fails the transaction. */
      const settle = (kind?: RecordKind) => {
        const due = creates.filter((c) => kind === undefined || c.kind === kind);
        creates = creates.filter((c) => !due.includes(c));
        for (const c of due) {
          const committed = tables.get(c.kind)?.unique.get(c.uniqueKey);
          const heldByCommitted = committed !== undefined && committed !== c.id && uniqueKeyOf(c.kind, committed) === c.uniqueKey;
          const heldByStaged = [...(overlay.get(c.kind) ?? [])].some(([id, rec]) => id !== c.id && rec?.unique_key === c.uniqueKey);
          if (heldByCommitted || heldByStaged) throw new UniqueViolation(c.kind, c.uniqueKey);
        }
      };
      const settleCreateOf = (kind: RecordKind, id: string) => {
        if (creates.some((c) => c.kind === kind && c.id === id)) settle(kind);
      };
      /**
       * Stages a put or a create. A record this transaction deleted is inserted again, at the
       * end, as on PostgreSQL: there the delete is sent at once, so the put inserts a new row,
       * numbered after every other (records.seq; postgres-tx.ts).
       */
      const stage = (kind: RecordKind, id: string, value: unknown, uniqueKey: string | undefined) => {
        const changes = staged(kind);
        const current = changes.get(id);
        if (current === null) changes.delete(id);
        const inserted = current === undefined ? !tables.get(kind)?.records.has(id) : current === null || current.inserted;
        changes.set(id, stagedRecord(kind, value, uniqueKey, inserted));
      };
      const tx: Tx = {
        get: async <R>(kind: RecordKind, id: string) => {
          const json = read(kind, id);
          return json === undefined ? undefined : parse<R>(json);
        },
        getByUniqueKey: async <R>(kind: RecordKind, uniqueKey: string) => {
          settle(kind);
          const rec = byUnique(kind, uniqueKey);
          return rec ? parse<R>(rec.json) : undefined;
        },
        put: async (kind, id, value, uniqueKey) => {
          if (uniqueKey === undefined) settleCreateOf(kind, id);
          else {
            settle(kind);
            const holder = byUnique(kind, uniqueKey);
            if (holder && holder.id !== id) throw new UniqueViolation(kind, uniqueKey);
          }
          stage(kind, id, value, uniqueKey);
        },
        create: async (kind, id, value, uniqueKey) => {
          settleCreateOf(kind, id);
          stage(kind, id, value, uniqueKey);
          creates.push({ kind, id, uniqueKey });
        },
        delete: async (kind, id) => {
          settleCreateOf(kind, id);
          staged(kind).set(id, null);
        },
        list: async <R>(kind: RecordKind) => {
          settle(kind);
          const changes = overlay.get(kind);
          const records = tables.get(kind)?.records;
          const out: R[] = [];
          for (const [id, json] of records ?? []) {
            const current = atCommittedPlace(changes, id, json);
            if (current !== undefined) out.push(parse<R>(current));
          }
          for (const [, rec] of changes ?? []) if (rec?.inserted) out.push(parse<R>(rec.json));
          return out;
        },
        listEntries: async <R>(kind: RecordKind, limit: number) => {
          settle(kind);
          const changes = overlay.get(kind);
          const records = tables.get(kind)?.records;
          const out: StoredEntry<R>[] = [];
          const add = (id: string, json: string) => out.push({ id, unique_key: uniqueKeyOf(kind, id) ?? null, data: parse<R>(json) });
          for (const [id, json] of records ?? []) {
            if (out.length >= limit) return out;
            const current = atCommittedPlace(changes, id, json);
            if (current !== undefined) add(id, current);
          }
          for (const [id, rec] of changes ?? []) {
            if (out.length >= limit) return out;
            if (rec?.inserted) add(id, rec.json);
          }
          return out;
        },
        newest: async <R>(kind: RecordKind, limit: number) => {
          settle(kind);
          const changes = overlay.get(kind);
          const table = tables.get(kind);
          const items: R[] = [];
          let total = table?.records.size ?? 0;
          // This transaction's inserted records are the newest, in the order it put them.
          const added = [...(changes ?? [])].filter(([, rec]) => rec?.inserted);
          for (const [id, rec] of changes ?? []) if ((rec === null || rec.inserted) && table?.records.has(id)) total -= 1;
          total += added.length;
          for (let i = added.length - 1; i >= 0 && items.length < limit; i -= 1) items.push(parse<R>((added[i]?.[1] as Staged).json));
          table?.order.newestFirst(
            (id) => table.records.has(id),
            (id) => {
              if (items.length >= limit) return false;
              const current = atCommittedPlace(changes, id, table.records.get(id));
              if (current !== undefined) items.push(parse<R>(current));
              return true;
            },
          );
          return { total, items };
        },
        newestBy: async <R>(kind: RecordKind, field: string, values: readonly string[], limit: number) => {
          settle(kind);
          const changes = overlay.get(kind);
          const table = tables.get(kind);
          return values.map((value) => {
            const key = indexKey(field, value);
            const items: R[] = [];
            const added = [...(changes ?? [])].filter(([, rec]) => rec?.inserted && rec.indexed.includes(key));
            for (let i = added.length - 1; i >= 0 && items.length < limit; i -= 1) items.push(parse<R>((added[i]?.[1] as Staged).json));
            table?.indexed.get(key)?.newestFirst(
              (id) => table.indexedOf.get(id)?.includes(key) ?? false,
              (id) => {
                if (items.length >= limit) return false;
                // Indexed fields never change (INDEXED_FIELDS): a staged update still holds the value.
                const current = atCommittedPlace(changes, id, table.records.get(id));
                if (current !== undefined) items.push(parse<R>(current));
                return true;
              },
            );
            return items;
          });
        },
        // The merchant's transactions run one at a time here: every record and name is already held.
        lock: async () => undefined,
        listDue: async <R>(kind: RecordKind, lane: DueLane, untilMs: number, limit: number) => {
          settle(kind);
          return dueIds(kind, lane, untilMs, limit).map((id) => parse<R>(read(kind, id) as string));
        },
        deleteDue: async (kind, lane, untilMs, limit) => {
          settle(kind);
          const ids = dueIds(kind, lane, untilMs, limit);
          for (const id of ids) staged(kind).set(id, null);
          return ids.length;
        },
      };
      const result = await fn(tx);
      settle();
      this.checkPublicHandles(merchantId, overlay);
      for (const [kind, changes] of overlay) {
        const table = tableOf(tables, kind);
        for (const [id, rec] of changes) {
          // Deleted, or deleted and inserted again: it leaves its place first.
          if ((rec === null || rec.inserted) && table.records.has(id)) removeRecord(table, id);
          if (rec) writeRecord(table, id, rec);
        }
      }
      return result;
    });
  }

  // Every transaction of a merchant runs alone here: `alone` changes nothing.
  withCheckedTransaction<T>(merchant: MerchantRecord, fn: (tx: Tx) => Promise<T>, current: () => void): Promise<T> {
    return this.withTransaction(merchant.id, async (tx) => {
      // Under the merchant's lock, which updateMerchant takes too: the record stays as compared until the end.
      if (!isDeepStrictEqual(this.merchants.get(merchant.id), merchant)) throw new MerchantChanged(merchant.id);
      current();
      return fn(tx);
    });
  }

  async withTransactionAlone<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    // Every transaction of a merchant already runs alone here.
    return this.withTransaction(merchantId, fn);
  }

  /**
   * A public handle (`PUBLIC_HANDLE_KINDS`) another merchant holds fails the transaction, checked
   * at its commit with nothing awaited until the writes are applied, so of two merchants' commits
   * that take one key only the first succeeds (as the unique index does on PostgreSQL).
   */
  private checkPublicHandles(merchantId: string, overlay: Map<RecordKind, Map<string, Staged | null>>): void {
    for (const kind of PUBLIC_HANDLE_KINDS) {
      for (const rec of overlay.get(kind)?.values() ?? []) {
        if (rec?.unique_key === undefined) continue;
        for (const [other, tables] of this.data) {
          if (other !== merchantId && tables.get(kind)?.unique.has(rec.unique_key)) throw new UniqueViolation(kind, rec.unique_key);
        }
      }
    }
  }

  async locate<T>(kind: RecordKind, uniqueKey: string) {
    for (const [merchantId, tables] of this.data) {
      const table = tables.get(kind);
      const id = table?.unique.get(uniqueKey);
      const json = id === undefined ? undefined : table?.records.get(id);
      if (json !== undefined) return { merchantId, data: parse<T>(json) };
    }
    return undefined;
  }

  /** Merchants are flat records (one array): a shallow copy isolates them. */
  async getMerchant(id: string) {
    const m = this.merchants.get(id);
    return m ? { ...m, account_ids: [...m.account_ids] } : undefined;
  }

  async findMerchantByPublicKey(publicKey: string) {
    const id = this.byPublicKey.get(publicKey);
    return id ? this.getMerchant(id) : undefined;
  }

  private keepMerchant(merchant: MerchantRecord) {
    this.merchants.set(merchant.id, { ...merchant, account_ids: [...merchant.account_ids] });
    this.byPublicKey.set(merchant.public_api_key, merchant.id);
  }

  async putMerchantIfAbsent(merchant: MerchantRecord) {
    // As PostgreSQL's unique id and public key: either taken means present. No await before the
    // put, so the check and the write are one step.
    if (this.merchants.has(merchant.id) || this.byPublicKey.has(merchant.public_api_key)) return false;
    this.keepMerchant(merchant);
    return true;
  }

  async listMerchantIds() {
    return [...this.merchants.keys()];
  }

  async updateMerchant(id: string, change: (m: MerchantRecord) => MerchantRecord) {
    return this.locks.run(id, async () => {
      const current = this.merchants.get(id);
      if (!current) return undefined;
      const next = change({ ...current, account_ids: [...current.account_ids] });
      this.keepMerchant(next);
      return { ...next, account_ids: [...next.account_ids] };
    });
  }

  async resetMerchant(merchantId: string) {
    return this.locks.run(merchantId, async () => {
      const tables = this.data.get(merchantId);
      const count = [...(tables?.values() ?? [])].reduce((n, t) => n + t.records.size, 0);
      this.data.delete(merchantId);
      return count;
    });
  }

  async ready() {
    return true;
  }

  async close() {}

  private tablesOf(merchantId: string): MerchantTables {
    let tables = this.data.get(merchantId);
    if (!tables) {
      tables = new Map();
      this.data.set(merchantId, tables);
    }
    return tables;
  }
}
