import type pg from 'pg';
import type { Due } from '../domain/due-work.js';
import type { RecordKind } from './types.js';

interface Row {
  id: string;
  json: string;
  due: Due | null;
}

/** Rows per INSERT: 7 parameters each, well under PostgreSQL's 65,535. */
const ROWS_PER_STATEMENT = 500;

/**
 * The puts of one transaction that cannot clash (no unique key; an id conflict is an upsert),
 * held back and sent as multi-row INSERTs: before anything reads their kind, and before the
 * commit. One statement instead of one round trip per record is what makes a clock advance that
 * writes thousands of payments, events and deliveries affordable on PostgreSQL. A record is copied
 * to JSON when put, so later changes by the caller never reach the store, as with every store.
 */
export class PendingWrites {
  private readonly byKind = new Map<RecordKind, Map<string, Row>>();

  constructor(
    private readonly client: pg.PoolClient,
    private readonly merchantId: string,
  ) {}

  put(kind: RecordKind, id: string, json: string, due: Due | null): void {
    let rows = this.byKind.get(kind);
    if (!rows) {
      rows = new Map();
      this.byKind.set(kind, rows);
    }
    rows.set(id, { id, json, due });
  }

  /** The record as this transaction last put it, if it is still held back. */
  get(kind: RecordKind, id: string): string | undefined {
    return this.byKind.get(kind)?.get(id)?.json;
  }

  /** Forgets a held-back record (the transaction deletes it). */
  drop(kind: RecordKind, id: string): void {
    this.byKind.get(kind)?.delete(id);
  }

  /** Sends the held-back records of `kind`, or of every kind, in the order they were first put. */
  async flush(kind?: RecordKind): Promise<void> {
    const kinds = kind === undefined ? [...this.byKind.keys()] : [kind];
    for (const k of kinds) {
      const rows = [...(this.byKind.get(k)?.values() ?? [])];
      this.byKind.delete(k);
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) await this.insert(k, rows.slice(i, i + ROWS_PER_STATEMENT));
    }
  }

  private async insert(kind: RecordKind, rows: Row[]): Promise<void> {
    const params: unknown[] = [this.merchantId, kind];
    const values = rows.map((r) => {
      params.push(r.id, r.json, r.due?.lane ?? null, r.due?.at ?? null);
      const n = params.length;
      return `($1, $2, $${n - 3}, NULL, $${n - 2}, $${n - 1}, $${n})`;
    });
    await this.client.query(
      `INSERT INTO records (merchant_id, kind, id, unique_key, data, due_lane, due_at) VALUES ${values.join(', ')}
       ON CONFLICT (merchant_id, kind, id) DO UPDATE SET unique_key = EXCLUDED.unique_key, data = EXCLUDED.data, due_lane = EXCLUDED.due_lane, due_at = EXCLUDED.due_at`,
      params,
    );
  }
}
