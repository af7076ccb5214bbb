import type pg from 'pg';
import { dueOf, type DueLane } from '../domain/due-work.js';
import { PendingWrites, type SentCreate } from './postgres-writes.js';
import { RECORD_COLUMNS, inInsertionOrder, isMerchantChange, merchantLockKey, merchantUnchanged, numberOrNull, recordLockKey, recordsWhere, text } from './postgres-sql.js';
import { MerchantChanged, UniqueViolation, type IndexedKind, type RecordKind, type StoredEntry, type Tx } from './types.js';

const UNIQUE_VIOLATION = '23505';
/** The unique index of public handles across merchants (migration 6; types.ts PUBLIC_HANDLE_KINDS). */
const PUBLIC_HANDLE_INDEX = 'records_public_handle';

/**
 * The `UniqueViolation` of a create among `creates` (the creates of the failed message) when the
 * unique key index refused it. PostgreSQL names the key in the error's detail:
 * `Key (merchant_id, kind, unique_key)=(m, customer, k) already exists.`
 */
function violatedCreate(merchantId: string, error: unknown, creates: SentCreate[]): UniqueViolation | undefined {
  const e = error as { code?: string; constraint?: string; detail?: string };
  if (e.code !== UNIQUE_VIOLATION) return undefined;
  // The public handle index names (kind, unique_key), without the merchant.
  const named = (c: SentCreate) =>
    e.constraint === 'records_unique_key' ? e.detail?.includes(`=(${merchantId}, ${c.kind}, ${c.uniqueKey})`) : e.constraint === PUBLIC_HANDLE_INDEX && e.detail?.includes(`=(${c.kind}, ${c.uniqueKey})`);
  const create = creates.find(named);
  return create ? new UniqueViolation(create.kind, create.uniqueKey) : undefined;
}

/** A check of the merchant record the caller acts on (`Store.withCheckedTransaction`). */
export interface MerchantCheck {
  /** The version of the row the caller's record was read at (`xmin`). */
  version: string;
  /** Called once the first message came back: the record was current, and stays so until the end. */
  current: () => void;
}

/**
 * One transaction on one pooled connection, in as few round trips as its reads allow. Nothing is
 * sent until the transaction first reads: `BEGIN` and the merchant's lock (shared) go with that
 * read; writes wait (`PendingWrites`) and go with the next read of their kind or with `COMMIT`.
 * A transaction that reads once, then writes, costs two round trips; one that only writes (a
 * customer and its event), one; one that touches nothing, none.
 *
 * Reads lock what they read: `get` takes the record's advisory lock, then reads it with a fresh
 * snapshot (under READ COMMITTED each statement sees what committed before it started), so
 * a transaction that reads, decides and writes a record never loses a concurrent change to it,
 * and two that find the same record absent do not both create it (one idempotency key, one
 * balance per recipient). Records no transaction reads go on in parallel: this is what replaced
 * the merchant-wide lock every transaction took (docs/scaling.md).
 */
export class TxSession {
  private readonly pending: PendingWrites;
  /** Statements to send before the next ones: `BEGIN` and the merchant's lock, then any `lock` taken since. */
  private queued: string[];
  private begun = false;
  /** The error that ended the transaction inside PostgreSQL; a `COMMIT` after it would only roll back, silently. */
  private failed: unknown;

  /**
   * `alone` takes the merchant's lock alone instead of shared (`Store.withTransactionAlone`): the
   * transaction waits for the merchant's open ones, and those begun after it wait for it.
   * `check` goes in the first message too, after the lock: a record that changed fails that
   * message, so nothing the message carries (held-back writes, even `COMMIT`) takes effect.
   */
  constructor(
    private readonly client: pg.PoolClient,
    private readonly merchantId: string,
    alone = false,
    private check?: MerchantCheck,
  ) {
    this.pending = new PendingWrites(merchantId);
    this.queued = ['BEGIN', `SELECT ${alone ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared'}(${merchantLockKey(merchantId)})`];
    if (check) this.queued.push(merchantUnchanged(merchantId, check.version));
  }

  /**
   * Sends the queued statements and `statements` as one simple query: one round trip, each
   * statement under its own snapshot, in order. Resolves to the results of `statements`.
   */
  private async send(statements: string[]): Promise<pg.QueryResult[]> {
    const head = this.queued;
    this.queued = [];
    this.begun = true;
    const creates = this.pending.sentCreates();
    const checking = this.check;
    this.check = undefined;
    const all = [...head, ...statements];
    const out = (await this.client.query(all.join(';\n')).catch((error: unknown) => {
      this.failed = checking && isMerchantChange(error) ? new MerchantChanged(this.merchantId) : (violatedCreate(this.merchantId, error, creates) ?? error);
      throw this.failed;
    })) as unknown as pg.QueryResult | pg.QueryResult[];
    checking?.current();
    const results = Array.isArray(out) ? out : [out];
    return results.slice(head.length);
  }

  /** The rows of the last of `statements`. */
  private async rows<R>(statements: string[]): Promise<R[]> {
    const results = await this.send(statements);
    return (results[results.length - 1]?.rows ?? []) as R[];
  }

  /** Sends a held-back create of this record, so its key is checked before the record changes again. */
  private async settleCreateOf(kind: RecordKind, id: string): Promise<void> {
    if (this.pending.isCreate(kind, id)) await this.send(this.pending.take(kind));
  }

  private where(kind: RecordKind): string {
    return recordsWhere(this.merchantId, kind);
  }

  private ordered(kind: RecordKind): string {
    return inInsertionOrder(this.merchantId, kind);
  }

  private lockRecord(kind: RecordKind, id: string): string {
    return `SELECT pg_advisory_xact_lock(${recordLockKey(this.merchantId, kind, text(id))})`;
  }

  async commit(): Promise<void> {
    // A caller that caught the failure and went on: the transaction is already lost.
    if (this.failed !== undefined) throw this.failed;
    const writes = this.pending.take();
    // Nothing read and nothing written: no transaction was ever opened.
    if (!this.begun && writes.length === 0) return;
    await this.send([...writes, 'COMMIT']);
  }

  async rollback(): Promise<void> {
    if (this.begun) await this.client.query('ROLLBACK').catch(() => undefined);
  }

  readonly tx: Tx = {
    get: async <R>(kind: RecordKind, id: string) => {
      const held = this.pending.get(kind, id);
      if (held !== undefined) return JSON.parse(held) as R;
      const [row] = await this.rows<{ data: R }>([this.lockRecord(kind, id), `SELECT data FROM records WHERE ${this.where(kind)} AND id = ${text(id)}`]);
      return row?.data;
    },
    getByUniqueKey: async <R>(kind: RecordKind, uniqueKey: string) => {
      const byKey = `${this.where(kind)} AND unique_key = ${text(uniqueKey)}`;
      const [row] = await this.rows<{ data: R }>([
        ...this.pending.take(kind),
        // The key itself (a record may take it meanwhile), then the record holding it, then the read.
        `SELECT pg_advisory_xact_lock(${recordLockKey(this.merchantId, kind, text(`unique\u001f${uniqueKey}`))})`,
        `SELECT pg_advisory_xact_lock(${recordLockKey(this.merchantId, kind, 'id')}) FROM records WHERE ${byKey}`,
        `SELECT data FROM records WHERE ${byKey}`,
      ]);
      return row?.data;
    },
    put: async (kind, id, data, uniqueKey) => {
      await this.settleCreateOf(kind, id);
      const due = dueOf(kind, data);
      const json = JSON.stringify(data);
      // Only a unique key can clash (an id conflict is an upsert): the other puts wait in `pending`.
      if (uniqueKey === undefined) return this.pending.put(kind, id, json, due);
      const mine = `${this.where(kind)} AND id = ${text(id)}`;
      const held = `SELECT 1 FROM records WHERE ${this.where(kind)} AND unique_key = ${text(uniqueKey)} AND id <> ${text(id)}`;
      // A clash is found without an error, so the transaction goes on (no savepoint, no extra
      // round trips): the record is updated, or inserted with the key as the conflict target, or
      // neither when another record holds the key — also one committed while this waited for it.
      const [result] = await this.rows<{ written: number }>([
        ...this.pending.take(kind),
        `WITH upd AS (
           UPDATE records SET unique_key = ${text(uniqueKey)}, data = ${text(json)}, due_lane = ${due ? text(due.lane) : 'NULL'}, due_at = ${numberOrNull(due?.at)}
           WHERE ${mine} AND NOT EXISTS (${held}) RETURNING 1),
         ins AS (
           INSERT INTO records ${RECORD_COLUMNS}
           SELECT ${text(this.merchantId)}, ${text(kind)}, ${text(id)}, ${text(uniqueKey)}, ${text(json)}::json, ${due ? text(due.lane) : 'NULL'}, ${numberOrNull(due?.at)}::bigint
           WHERE NOT EXISTS (${held}) AND NOT EXISTS (SELECT 1 FROM records WHERE ${mine})
           ON CONFLICT (merchant_id, kind, unique_key) WHERE unique_key IS NOT NULL DO NOTHING RETURNING 1)
         SELECT (SELECT count(*) FROM upd) + (SELECT count(*) FROM ins) AS written`,
      ]).catch((error: unknown) => {
        // Two transactions that both change an existing record to one key, or another merchant
        // holding a public handle: the second fails, and the transaction with it (the only clashes
        // not found without an error).
        const e = error as { code?: string; constraint?: string };
        if (e.code === UNIQUE_VIOLATION && (e.constraint === 'records_unique_key' || e.constraint === PUBLIC_HANDLE_INDEX)) throw new UniqueViolation(kind, uniqueKey);
        throw error;
      });
      if (Number(result?.written) === 0) throw new UniqueViolation(kind, uniqueKey);
    },
    create: async (kind, id, data, uniqueKey) => {
      await this.settleCreateOf(kind, id);
      // Held back like any write and sent as an upsert of its own (the id as the conflict target)
      // with the next read of its kind or the commit: a key another record holds fails that
      // statement, and the transaction with it. A request that
      // creates a customer and its event is one round trip: BEGIN, the lock, both INSERTs, COMMIT.
      this.pending.put(kind, id, JSON.stringify(data), dueOf(kind, data), uniqueKey);
    },
    delete: async (kind, id) => {
      await this.settleCreateOf(kind, id);
      this.pending.drop(kind, id);
      await this.send([this.lockRecord(kind, id), `DELETE FROM records WHERE ${this.where(kind)} AND id = ${text(id)}`]);
    },
    deleteDue: async (kind, lane, untilMs, limit) => {
      const [deleted] = (
        await this.send([
          ...this.pending.take(kind),
          `DELETE FROM records WHERE ${this.where(kind)} AND id IN
           (SELECT id FROM records WHERE ${this.dueWhere(kind, lane, untilMs)} ORDER BY due_at, seq LIMIT ${numberOrNull(limit)})`,
        ])
      ).slice(-1);
      return deleted?.rowCount ?? 0;
    },
    list: async <R>(kind: RecordKind) => {
      const rows = await this.rows<{ data: R }>([...this.pending.take(kind), `SELECT data FROM records WHERE ${this.ordered(kind)} ORDER BY seq`]);
      return rows.map((row) => row.data);
    },
    listEntries: async <R>(kind: RecordKind, limit: number) =>
      this.rows<StoredEntry<R>>([...this.pending.take(kind), `SELECT id, unique_key, data FROM records WHERE ${this.ordered(kind)} ORDER BY seq LIMIT ${numberOrNull(limit)}`]),
    newest: async <R>(kind: RecordKind, limit: number) => {
      // One statement, so the count and the records are of one moment. The newest are read
      // backwards along records_in_insertion_order (merchant_id, kind, seq); the count from an index's
      // entries alone (no record's data; no table read once the table is vacuumed).
      const [row] = await this.rows<{ total: number; items: R[] }>([
        ...this.pending.take(kind),
        `SELECT (SELECT count(*)::int FROM records WHERE ${this.ordered(kind)}) AS total,
           coalesce((SELECT json_agg(n.data ORDER BY n.seq DESC) FROM
             (SELECT data, seq FROM records WHERE ${this.ordered(kind)} ORDER BY seq DESC LIMIT ${numberOrNull(limit)}) n), '[]'::json) AS items`,
      ]);
      return row as { total: number; items: R[] };
    },
    newestBy: async <R, K extends IndexedKind>(kind: K, field: string, values: readonly string[], limit: number) => {
      if (values.length === 0) return [];
      // Each value's newest through the field's expression index (migration 4), in one statement.
      const rows = await this.rows<{ ord: number; data: R }>([
        ...this.pending.take(kind),
        `SELECT v.ord::int AS ord, r.data FROM unnest(ARRAY[${values.map(text).join(', ')}]::text[]) WITH ORDINALITY AS v(value, ord),
           LATERAL (SELECT data, seq FROM records WHERE ${this.where(kind)} AND data ->> ${text(field)} = v.value ORDER BY seq DESC LIMIT ${numberOrNull(limit)}) r
         ORDER BY v.ord, r.seq DESC`,
      ]);
      const out: R[][] = values.map(() => []);
      for (const { ord, data } of rows) out[ord - 1]?.push(data);
      return out;
    },
    lock: async (name: string) => {
      // Sent with the next statement: a lock matters only to what is read after it.
      this.queued.push(`SELECT pg_advisory_xact_lock(${recordLockKey(this.merchantId, 'lock', text(name))})`);
    },
    listDue: async <R>(kind: RecordKind, lane: DueLane, untilMs: number, limit: number) => {
      const due = `SELECT id FROM records WHERE ${this.dueWhere(kind, lane, untilMs)} ORDER BY due_at, seq LIMIT ${numberOrNull(limit)}`;
      // Lock what is due (in one order, so two listings never wait for each other in a circle),
      // then read it again with a fresh snapshot: work another replica took meanwhile is no longer due.
      const results = await this.send([
        ...this.pending.take(kind),
        `SELECT o.id FROM (SELECT id FROM (${due}) d ORDER BY ${recordLockKey(this.merchantId, kind, 'd.id')}) o,
           LATERAL (SELECT pg_advisory_xact_lock(${recordLockKey(this.merchantId, kind, 'o.id')})) k`,
        `SELECT id, data FROM records WHERE ${this.dueWhere(kind, lane, untilMs)} ORDER BY due_at, seq LIMIT ${numberOrNull(limit)}`,
      ]);
      const locked = new Set((results[results.length - 2]?.rows ?? []).map((r: { id: string }) => r.id));
      const out: R[] = [];
      for (const { id, data } of (results[results.length - 1]?.rows ?? []) as { id: string; data: R }[]) {
        if (locked.has(id)) {
          out.push(data);
          continue;
        }
        // Fell due between the lock and the read: hold it too, and keep it only if it still is due.
        const fresh = await this.tx.get<R>(kind, id);
        const still = fresh === undefined ? null : dueOf(kind, fresh);
        if (still && still.lane === lane && still.at <= untilMs) out.push(fresh as R);
      }
      return out;
    },
  };

  private dueWhere(kind: RecordKind, lane: DueLane, untilMs: number): string {
    return `${this.where(kind)} AND due_lane = ${text(lane)} AND due_at <= ${numberOrNull(untilMs)}`;
  }
}
