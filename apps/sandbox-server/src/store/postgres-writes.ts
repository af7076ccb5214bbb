import type { Due } from '../domain/due-work.js';
import { RECORD_COLUMNS, UPSERT, recordValues } from './postgres-sql.js';
import type { RecordKind } from './types.js';

interface Row {
  id: string;
  json: string;
  due: Due | null;
  /** Set for a `create`: a statement of its own, which fails the transaction when another record holds the key. */
  uniqueKey?: string;
}

/** A `create` sent in a statement: which key a unique violation of that statement is about. */
export interface SentCreate {
  kind: RecordKind;
  uniqueKey: string;
}

/** Rows per INSERT: a clock advance that writes thousands of records sends a few statements, none of unbounded size. */
const ROWS_PER_STATEMENT = 500;

/**
 * The puts of one transaction that cannot clash (no unique key; an id conflict is an upsert), and
 * its creates (a new record whose unique key clashes only by failing the transaction), held back and sent as multi-row INSERTs: in the same round trip as whatever next reads their
 * kind, and as the commit. One statement instead of one round trip per record is what makes a
 * clock advance that writes thousands of payments, events and deliveries affordable on
 * PostgreSQL, and a request that writes one record and its event cost one round trip in all. A
 * record is copied to JSON when put, so later changes by the caller never reach the store, as
 * with every store.
 */
export class PendingWrites {
  private readonly byKind = new Map<RecordKind, Map<string, Row>>();
  /** Creates in the statements taken since `sentCreates` was last called. */
  private taken: SentCreate[] = [];

  constructor(private readonly merchantId: string) {}

  put(kind: RecordKind, id: string, json: string, due: Due | null, uniqueKey?: string): void {
    let rows = this.byKind.get(kind);
    if (!rows) {
      rows = new Map();
      this.byKind.set(kind, rows);
    }
    rows.set(id, uniqueKey === undefined ? { id, json, due } : { id, json, due, uniqueKey });
  }

  /** True when the record is held back as a `create`, whose key has not been checked yet. */
  isCreate(kind: RecordKind, id: string): boolean {
    return this.byKind.get(kind)?.get(id)?.uniqueKey !== undefined;
  }

  /** The creates taken since the last call: the ones in the statements about to be sent. */
  sentCreates(): SentCreate[] {
    const sent = this.taken;
    this.taken = [];
    return sent;
  }

  /** The record as this transaction last put it, if it is still held back. */
  get(kind: RecordKind, id: string): string | undefined {
    return this.byKind.get(kind)?.get(id)?.json;
  }

  /** Forgets a held-back record (the transaction deletes it). */
  drop(kind: RecordKind, id: string): void {
    this.byKind.get(kind)?.delete(id);
  }

  /**
   * The statements that write the held-back records of `kind`, or of every kind, in the order
   * they were first put; they are no longer held back once taken, so the caller sends them next.
   * Puts go as multi-row upserts; each create as an upsert of its own, in its place, whose only
   * possible failure is another record holding its key.
   */
  take(kind?: RecordKind): string[] {
    const kinds = kind === undefined ? [...this.byKind.keys()] : [kind];
    const statements: string[] = [];
    for (const k of kinds) {
      const rows = [...(this.byKind.get(k)?.values() ?? [])];
      this.byKind.delete(k);
      let upserts: string[] = [];
      const flush = () => {
        for (let i = 0; i < upserts.length; i += ROWS_PER_STATEMENT) statements.push(`INSERT INTO records ${RECORD_COLUMNS} VALUES ${upserts.slice(i, i + ROWS_PER_STATEMENT).join(', ')} ${UPSERT}`);
        upserts = [];
      };
      for (const r of rows) {
        const values = recordValues(this.merchantId, k, r.id, r.json, r.due, r.uniqueKey);
        if (r.uniqueKey === undefined) {
          upserts.push(values);
          continue;
        }
        flush();
        // The id as the conflict target, as a put: only another record's key fails the statement.
        statements.push(`INSERT INTO records ${RECORD_COLUMNS} VALUES ${values} ${UPSERT}`);
        this.taken.push({ kind: k, uniqueKey: r.uniqueKey });
      }
      flush();
    }
    return statements;
  }
}
