import type { DueLane } from '../domain/due-work.js';
import type { MemoryCeiling } from './memory-ceiling.js';
import type { RecordCompactor, StoredText } from './record-compactor.js';
import { committedPlace, indexKey, removeRecord, stagedRecord, tableOf, writeRecord, type KindTable, type MerchantTables, type Staged } from './memory-tables.js';
import { UniqueViolation, type RecordKind, type StoredEntry, type Tx } from './types.js';

/** A create whose unique key is not checked yet. */
interface HeldCreate {
  kind: RecordKind;
  id: string;
  uniqueKey: string;
}

/**
 * What a committed record's place in insertion order holds for a transaction that staged
 * `changes`: its committed text (`json`), its staged update, or nothing once the transaction
 * deleted it or inserted it again (then it is at its new place, among the inserted).
 */
function atCommittedPlace(changes: Map<string, Staged | null> | undefined, id: string, json: StoredText | undefined): StoredText | undefined {
  const staged = changes?.get(id);
  if (staged === undefined) return json;
  return staged === null || staged.inserted ? undefined : staged.json;
}

/**
 * One transaction of the memory store on one merchant's tables, which it alone uses while it
 * runs (the store's lock): its writes go to a private overlay, read back through it, and reach
 * the tables only on `commit`, so a failed request leaves nothing behind and readers never see
 * half a change. `tx` is what the transaction's caller is handed.
 */
export class MemoryTransaction {
  /** Staged writes per kind: a record, or null for a delete. */
  private readonly overlay = new Map<RecordKind, Map<string, Staged | null>>();
  /** Creates whose key is not checked yet: checked where PostgreSQL sends them (postgres-tx.ts), so both stores fail at the same call. */
  private creates: HeldCreate[] = [];

  constructor(
    private readonly tables: MerchantTables,
    private readonly ceiling: MemoryCeiling,
    private readonly compactor: RecordCompactor,
  ) {}

  /** The unique keys this transaction's records of `kinds` will hold once committed. */
  *stagedKeys(kinds: ReadonlySet<RecordKind>): Iterable<[RecordKind, string]> {
    for (const kind of kinds) for (const rec of this.overlay.get(kind)?.values() ?? []) if (rec?.unique_key !== undefined) yield [kind, rec.unique_key];
  }

  /**
   * Writes every staged change to the tables, after checking the creates still held back, and
   * tells `keyed` each unique key a record now holds. A
   * transaction that adds a record is refused past the memory ceiling (nothing is written);
   * updates and deletions always commit, so work in progress can finish and memory be freed.
   */
  commit(keyed: (kind: RecordKind, uniqueKey: string) => void): void {
    this.settle();
    if (this.addsRecords()) this.ceiling.check(this.compactor.offHeapBytes);
    for (const [kind, changes] of this.overlay) {
      const table = tableOf(this.tables, kind);
      for (const [id, rec] of changes) {
        // Deleted, or deleted and inserted again: it leaves its place first.
        if ((rec === null || rec.inserted) && table.records.has(id)) this.compactor.released(removeRecord(table, id));
        if (rec) {
          this.compactor.released(writeRecord(table, id, rec));
          this.compactor.written(kind, table.records, id);
          if (rec.unique_key !== undefined) keyed(kind, rec.unique_key);
        }
      }
    }
    this.compactor.committed();
  }

  /** A stored text (compacted or not) as a fresh value. */
  private parse<R>(stored: StoredText): R {
    return JSON.parse(this.compactor.text(stored)) as R;
  }

  private addsRecords(): boolean {
    for (const changes of this.overlay.values()) for (const rec of changes.values()) if (rec?.inserted) return true;
    return false;
  }

  private staged(kind: RecordKind): Map<string, Staged | null> {
    let m = this.overlay.get(kind);
    if (!m) {
      m = new Map();
      this.overlay.set(kind, m);
    }
    return m;
  }

  private read(kind: RecordKind, id: string): StoredText | undefined {
    const s = this.overlay.get(kind)?.get(id);
    if (s !== undefined) return s?.json;
    return this.tables.get(kind)?.records.get(id);
  }

  private uniqueKeyOf(kind: RecordKind, id: string): string | undefined {
    const s = this.overlay.get(kind)?.get(id);
    if (s !== undefined) return s?.unique_key;
    return this.tables.get(kind)?.uniqueOf.get(id);
  }

  private byUnique(kind: RecordKind, uniqueKey: string): { id: string; json: StoredText } | undefined {
    for (const [id, rec] of this.overlay.get(kind) ?? []) if (rec?.unique_key === uniqueKey) return { id, json: rec.json };
    const id = this.tables.get(kind)?.unique.get(uniqueKey);
    if (id === undefined || this.uniqueKeyOf(kind, id) !== uniqueKey) return undefined;
    const json = this.read(kind, id);
    return json === undefined ? undefined : { id, json };
  }

  /**
   * Ids of the records due in `lane` by `untilMs`, earliest first and equal times in insertion
   * order, from the committed lane's queue and this transaction's writes: an update keeps its
   * committed place, a record the transaction inserted comes after every committed one, in the
   * order it was put (as PostgreSQL numbers it when it inserts it). Reads about `limit` committed
   * entries, however many the lane holds.
   */
  private dueIds(kind: RecordKind, lane: DueLane, untilMs: number, limit: number): string[] {
    const changes = this.overlay.get(kind);
    const table = this.tables.get(kind);
    const found: { id: string; at: number; place: number }[] = [];
    // The transaction's own writes replace their committed entries: those are skipped here.
    const queue = table?.queues[lane];
    queue?.earliest(untilMs, (entry) => {
      const id = queue.idOf(entry);
      if (!changes?.has(id)) found.push({ id, at: queue.atOf(entry), place: queue.placeOf(entry) });
      return found.length < limit;
    });
    let next = table?.order.end ?? 0;
    for (const [id, rec] of changes ?? []) {
      const inserted = rec?.inserted ? next : undefined;
      if (inserted !== undefined) next += 1;
      if (!rec?.due || rec.due.lane !== lane || rec.due.at > untilMs) continue;
      // Not inserted: committed, so the table holds its place (its due entry's, or its position when it falls due in this transaction).
      const place = inserted ?? committedPlace(table as KindTable, id);
      found.push({ id, at: rec.due.at, place });
    }
    found.sort((a, b) => a.at - b.at || a.place - b.place);
    return found.slice(0, limit).map(({ id }) => id);
  }

  /** Checks the held-back creates of `kind` (of every kind when none is given): another record holding the key fails the transaction. */
  private settle(kind?: RecordKind): void {
    if (this.creates.length === 0) return;
    const due = this.creates.filter((c) => kind === undefined || c.kind === kind);
    if (due.length === 0) return;
    this.creates = this.creates.filter((c) => !due.includes(c));
    for (const c of due) {
      const committed = this.tables.get(c.kind)?.unique.get(c.uniqueKey);
      const heldByCommitted = committed !== undefined && committed !== c.id && this.uniqueKeyOf(c.kind, committed) === c.uniqueKey;
      const heldByStaged = [...(this.overlay.get(c.kind) ?? [])].some(([id, rec]) => id !== c.id && rec?.unique_key === c.uniqueKey);
      if (heldByCommitted || heldByStaged) throw new UniqueViolation(c.kind, c.uniqueKey);
    }
  }

  private settleCreateOf(kind: RecordKind, id: string): void {
    if (this.creates.some((c) => c.kind === kind && c.id === id)) this.settle(kind);
  }

  /**
   * Stages a put or a create. A record this transaction deleted is inserted again, at the end, as
   * on PostgreSQL: there the delete is sent at once, so the put inserts a new row, numbered after
   * every other (records.seq; postgres-tx.ts).
   */
  private stage(kind: RecordKind, id: string, value: unknown, uniqueKey: string | undefined): void {
    const changes = this.staged(kind);
    const current = changes.get(id);
    if (current === null) changes.delete(id);
    const inserted = current === undefined ? !this.tables.get(kind)?.records.has(id) : current === null || current.inserted;
    changes.set(id, stagedRecord(kind, value, uniqueKey, inserted));
  }

  /** The records this transaction inserted of `kind`, in the order it put them. */
  private inserted(kind: RecordKind, indexed?: string): Staged[] {
    const out: Staged[] = [];
    for (const rec of this.overlay.get(kind)?.values() ?? []) if (rec?.inserted && (indexed === undefined || rec.indexed.includes(indexed))) out.push(rec);
    return out;
  }

  // An object of its own (as PostgreSQL's TxSession hands out), so callers may copy it with a spread.
  readonly tx: Tx = {
    get: async <R>(kind: RecordKind, id: string) => {
      const json = this.read(kind, id);
      return json === undefined ? undefined : this.parse<R>(json);
    },
    getByUniqueKey: async <R>(kind: RecordKind, uniqueKey: string) => {
      this.settle(kind);
      const rec = this.byUnique(kind, uniqueKey);
      return rec ? this.parse<R>(rec.json) : undefined;
    },
    put: async (kind, id, value, uniqueKey) => {
      if (uniqueKey === undefined) this.settleCreateOf(kind, id);
      else {
        this.settle(kind);
        const holder = this.byUnique(kind, uniqueKey);
        if (holder && holder.id !== id) throw new UniqueViolation(kind, uniqueKey);
      }
      this.stage(kind, id, value, uniqueKey);
    },
    create: async (kind, id, value, uniqueKey) => {
      this.settleCreateOf(kind, id);
      this.stage(kind, id, value, uniqueKey);
      this.creates.push({ kind, id, uniqueKey });
    },
    delete: async (kind, id) => {
      this.settleCreateOf(kind, id);
      this.staged(kind).set(id, null);
    },
    list: async <R>(kind: RecordKind) => {
      this.settle(kind);
      const changes = this.overlay.get(kind);
      const out: R[] = [];
      for (const [id, json] of this.tables.get(kind)?.records ?? []) {
        const current = atCommittedPlace(changes, id, json);
        if (current !== undefined) out.push(this.parse<R>(current));
      }
      for (const rec of this.inserted(kind)) out.push(this.parse<R>(rec.json));
      return out;
    },
    listEntries: async <R>(kind: RecordKind, limit: number) => {
      this.settle(kind);
      const changes = this.overlay.get(kind);
      const out: StoredEntry<R>[] = [];
      const add = (id: string, json: StoredText) => out.push({ id, unique_key: this.uniqueKeyOf(kind, id) ?? null, data: this.parse<R>(json) });
      for (const [id, json] of this.tables.get(kind)?.records ?? []) {
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
      this.settle(kind);
      const changes = this.overlay.get(kind);
      const table = this.tables.get(kind);
      const items: R[] = [];
      let total = table?.records.size ?? 0;
      // This transaction's inserted records are the newest, in the order it put them.
      const added = this.inserted(kind);
      for (const [id, rec] of changes ?? []) if ((rec === null || rec.inserted) && table?.records.has(id)) total -= 1;
      total += added.length;
      for (let i = added.length - 1; i >= 0 && items.length < limit; i -= 1) items.push(this.parse<R>((added[i] as Staged).json));
      table?.order.newestFirst(
        (id) => table.records.has(id),
        (id) => {
          if (items.length >= limit) return false;
          const current = atCommittedPlace(changes, id, table.records.get(id));
          if (current !== undefined) items.push(this.parse<R>(current));
          return true;
        },
      );
      return { total, items };
    },
    newestBy: async <R>(kind: RecordKind, field: string, values: readonly string[], limit: number) => {
      this.settle(kind);
      const changes = this.overlay.get(kind);
      const table = this.tables.get(kind);
      return values.map((value) => {
        const key = indexKey(field, value);
        const items: R[] = [];
        const added = this.inserted(kind, key);
        for (let i = added.length - 1; i >= 0 && items.length < limit; i -= 1) items.push(this.parse<R>((added[i] as Staged).json));
        table?.indexed.get(key)?.newestFirst(
          (id) => table.indexedOf.get(id)?.includes(key) ?? false,
          (id) => {
            if (items.length >= limit) return false;
            // Indexed fields never change (INDEXED_FIELDS): a staged update still holds the value.
            const current = atCommittedPlace(changes, id, table.records.get(id));
            if (current !== undefined) items.push(this.parse<R>(current));
            return true;
          },
        );
        return items;
      });
    },
    // The merchant's transactions run one at a time here: every record and name is already held.
    lock: async () => undefined,
    listDue: async <R>(kind: RecordKind, lane: DueLane, untilMs: number, limit: number) => {
      this.settle(kind);
      return this.dueIds(kind, lane, untilMs, limit).map((id) => this.parse<R>(this.read(kind, id) as string));
    },
    deleteDue: async (kind, lane, untilMs, limit) => {
      this.settle(kind);
      const ids = this.dueIds(kind, lane, untilMs, limit);
      for (const id of ids) this.staged(kind).set(id, null);
      return ids.length;
    },
  };
}
