import { dueOf, type Due, type DueLane } from '../domain/due-work.js';
import { DueQueue, type DueEntry } from './due-queue.js';
import { InsertionOrder } from './insertion-order.js';
import type { StoredText } from './record-compactor.js';
import { INDEXED_FIELDS, type RecordKind } from './types.js';

/**
 * A write staged in a transaction: the record's JSON text, its unique key, its due work and its
 * index keys, if any, and whether it is inserted: absent when the transaction first put it (never
 * committed, or deleted by the transaction before), so it takes a new place in insertion order,
 * its place among the transaction's writes. A record present when put keeps its place.
 */
export interface Staged {
  json: string;
  unique_key: string | undefined;
  due: Due | null;
  indexed: string[];
  inserted: boolean;
}

/** What a transaction stages for a put or a create of `value`. */
export const stagedRecord = (kind: RecordKind, value: unknown, uniqueKey: string | undefined, inserted: boolean): Staged => ({
  json: serialize(value),
  unique_key: uniqueKey,
  due: dueOf(kind, value),
  indexed: indexKeysOf(kind, value),
  inserted,
});

/** The key of one value of one indexed field (`INDEXED_FIELDS`). */
export const indexKey = (field: string, value: string) => `${field}\u001f${value}`;

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
 * A committed record's due work: its lane, when, and its place (its position in its table's
 * `order`). Kept for records with due work only, so finding due work reads no others.
 */
export interface LaneEntry extends DueEntry {
  readonly lane: DueLane;
}

/**
 * One kind of record of one merchant: each record by id (its JSON text, or once compacted the slot
 * of its bytes: record-compactor.ts), in insertion order, the
 * unique keys both ways (only records that have one pay for the second map), each record's due
 * work and the queue of each lane's (earliest first), the insertion order again, readable from
 * the newest end, and the ids holding each value of an indexed field, with the index keys of
 * each record that has some.
 */
export interface KindTable {
  records: Map<string, StoredText>;
  unique: Map<string, string>;
  uniqueOf: Map<string, string>;
  due: Map<string, LaneEntry>;
  queues: Record<DueLane, DueQueue>;
  order: InsertionOrder;
  indexed: Map<string, InsertionOrder>;
  indexedOf: Map<string, string[]>;
}
export type MerchantTables = Map<RecordKind, KindTable>;

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

export function tableOf(tables: MerchantTables, kind: RecordKind): KindTable {
  let table = tables.get(kind);
  if (!table) {
    const due = new Map<string, LaneEntry>();
    const isLive = (entry: DueEntry) => due.get(entry.id) === entry;
    table = {
      records: new Map(),
      unique: new Map(),
      uniqueOf: new Map(),
      due,
      queues: { clock: new DueQueue(isLive), retention: new DueQueue(isLive) },
      order: new InsertionOrder(),
      indexed: new Map(),
      indexedOf: new Map(),
    };
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

/** Commits the deletion of a committed record: it leaves the insertion order and every index. Returns what was stored. */
export function removeRecord(table: KindTable, id: string): StoredText | undefined {
  const stored = table.records.get(id);
  dropUniqueKey(table, id);
  keepDue(table, id, null, undefined);
  table.records.delete(id);
  table.order.leave(
    (member) => table.records.has(member),
    (member, place) => {
      const due = table.due.get(member);
      if (due) due.place = place;
    },
  );
  reindex(table, id, []);
  return stored;
}

/** Commits a staged record: an update keeps its place, a record not committed yet joins at the end. Returns what it replaced. */
export function writeRecord(table: KindTable, id: string, rec: Staged): StoredText | undefined {
  dropUniqueKey(table, id);
  const replaced = table.records.get(id);
  const joined = replaced === undefined ? table.order.join(id) : undefined;
  keepDue(table, id, rec.due, joined);
  table.records.set(id, rec.json);
  if (rec.unique_key !== undefined) {
    table.unique.set(rec.unique_key, id);
    table.uniqueOf.set(id, rec.unique_key);
  }
  reindex(table, id, rec.indexed);
  return replaced;
}

/**
 * Keeps a committed record's due work (none: it leaves the due map) with its place: `joined`, for
 * a record that has just joined the insertion order; the entry's own, for one that had due work;
 * for one falling due now, its position looked up from the newest end, where a record put moments
 * ago (an idempotency key completing its request) is found at once. Due work that changes is a
 * new entry in its lane's queue; the one it replaces goes stale there.
 */
function keepDue(table: KindTable, id: string, due: Due | null, joined: number | undefined): void {
  const held = table.due.get(id);
  if (held && due && held.lane === due.lane && held.at === due.at) return;
  if (due) {
    const entry: LaneEntry = { id, lane: due.lane, at: due.at, place: held?.place ?? joined ?? table.order.positionOf(id) };
    table.due.set(id, entry);
    table.queues[due.lane].push(entry);
  } else if (held) table.due.delete(id);
  if (held) table.queues[held.lane].dropped();
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
