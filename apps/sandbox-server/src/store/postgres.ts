import pg from 'pg';
import type { SecretKeyDigests } from '../runtime/secret-keys.js';
import { dueOf, type DueLane } from '../domain/due-work.js';
import { MIGRATIONS } from './migrations/index.js';
import { PendingWrites } from './postgres-writes.js';
import { secretKeysOf } from './secret-key-pepper.js';
import { UniqueViolation, type MerchantRecord, type RecordKind, type Store, type StoredEntry, type Tx } from './types.js';

const UNIQUE_VIOLATION = '23505';
/** All transactions of one merchant take this advisory lock, across every process on the database. */
const LOCK_SQL = 'SELECT pg_advisory_xact_lock(hashtextextended($1, 7))';

export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema to use (created if missing); default `public`. Tests give each run its own. */
  schema?: string;
  poolSize?: number;
  /** Key of the merchant secret-key digests; without it the database keeps a generated one. */
  secretKeyPepper?: string;
}

/** Runs `fn` in a transaction on one pooled connection; commits when it resolves, rolls back when it throws. */
async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Applies the migrations not yet applied, under a lock so concurrent starts do not race, and
 * resolves the secret-key pepper under the same lock.
 */
function migrate(pool: pg.Pool, schema: string, secretKeyPepper: string | undefined): Promise<SecretKeyDigests> {
  return inTransaction(pool, async (client) => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query('SELECT pg_advisory_xact_lock(7317)');
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    const secretKeys = () => secretKeysOf(client, secretKeyPepper);
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      if ('sql' in m) {
        await client.query(m.sql);
        if (m.backfill) await m.backfill((sql, params) => client.query(sql, params));
      } else await m.run({ client, secretKeys });
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
    return secretKeys();
  });
}

/**
 * The durable store. Records live in one table keyed by (merchant, kind, id), with a partial
 * unique index for secondary keys. Each transaction first takes the merchant's advisory lock, so
 * the transactions of one merchant run one at a time across all sandbox replicas — the same rule
 * as the memory store — and commits or rolls back as a whole.
 */
export class PostgresStore implements Store {
  private constructor(
    private readonly pool: pg.Pool,
    readonly secretKeys: SecretKeyDigests,
  ) {}

  static async connect(options: PostgresStoreOptions): Promise<PostgresStore> {
    const schema = options.schema ?? 'public';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
      options: `-c search_path=${schema}`,
    });
    pool.on('error', () => undefined);
    try {
      return new PostgresStore(pool, await migrate(pool, schema, options.secretKeyPepper));
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  /** A transaction holding the merchant's advisory lock. */
  private locked<T>(merchantId: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      await client.query(LOCK_SQL, [merchantId]);
      return fn(client);
    });
  }

  async withTransaction<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.locked(merchantId, async (client) => {
      const pending = new PendingWrites(client, merchantId);
      const tx: Tx = {
        get: async <R>(kind: RecordKind, id: string) => {
          const held = pending.get(kind, id);
          if (held !== undefined) return JSON.parse(held) as R;
          const r = await client.query<{ data: R }>('SELECT data FROM records WHERE merchant_id = $1 AND kind = $2 AND id = $3', [merchantId, kind, id]);
          return r.rows[0]?.data;
        },
        getByUniqueKey: async <R>(kind: RecordKind, uniqueKey: string) => {
          await pending.flush(kind);
          const r = await client.query<{ data: R }>('SELECT data FROM records WHERE merchant_id = $1 AND kind = $2 AND unique_key = $3', [merchantId, kind, uniqueKey]);
          return r.rows[0]?.data;
        },
        put: async (kind, id, data, uniqueKey) => {
          const due = dueOf(kind, data);
          const json = JSON.stringify(data);
          // Only a unique key can clash (an id conflict is an upsert): the other puts wait in `pending`.
          if (uniqueKey === undefined) return pending.put(kind, id, json, due);
          await pending.flush(kind);
          try {
            // A clash may be caught with the transaction going on: the savepoint keeps it usable.
            await client.query('SAVEPOINT put');
            await client.query(
              `INSERT INTO records (merchant_id, kind, id, unique_key, data, due_lane, due_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
               ON CONFLICT (merchant_id, kind, id) DO UPDATE SET unique_key = EXCLUDED.unique_key, data = EXCLUDED.data, due_lane = EXCLUDED.due_lane, due_at = EXCLUDED.due_at`,
              [merchantId, kind, id, uniqueKey, json, due?.lane ?? null, due?.at ?? null],
            );
            await client.query('RELEASE SAVEPOINT put');
          } catch (error) {
            await client.query('ROLLBACK TO SAVEPOINT put');
            if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new UniqueViolation(kind, uniqueKey);
            throw error;
          }
        },
        delete: async (kind, id) => {
          pending.drop(kind, id);
          await client.query('DELETE FROM records WHERE merchant_id = $1 AND kind = $2 AND id = $3', [merchantId, kind, id]);
        },
        deleteDue: async (kind, lane, untilMs, limit) => {
          await pending.flush(kind);
          const r = await client.query(
            `DELETE FROM records WHERE merchant_id = $1 AND kind = $2 AND id IN
             (SELECT id FROM records WHERE merchant_id = $1 AND kind = $2 AND due_lane = $3 AND due_at <= $4 ORDER BY due_at, seq LIMIT $5)`,
            [merchantId, kind, lane, untilMs, limit],
          );
          return r.rowCount ?? 0;
        },
        list: async <R>(kind: RecordKind) => {
          await pending.flush(kind);
          const r = await client.query<{ data: R }>('SELECT data FROM records WHERE merchant_id = $1 AND kind = $2 ORDER BY seq', [merchantId, kind]);
          return r.rows.map((row) => row.data);
        },
        listEntries: async <R>(kind: RecordKind, limit: number) => {
          await pending.flush(kind);
          const r = await client.query<StoredEntry<R>>('SELECT id, unique_key, data FROM records WHERE merchant_id = $1 AND kind = $2 ORDER BY seq LIMIT $3', [merchantId, kind, limit]);
          return r.rows;
        },
        listDue: async <R>(kind: RecordKind, lane: DueLane, untilMs: number, limit: number) => {
          await pending.flush(kind);
          const r = await client.query<{ data: R }>(
            'SELECT data FROM records WHERE merchant_id = $1 AND kind = $2 AND due_lane = $3 AND due_at <= $4 ORDER BY due_at, seq LIMIT $5',
            [merchantId, kind, lane, untilMs, limit],
          );
          return r.rows.map((row) => row.data);
        },
      };
      const result = await fn(tx);
      await pending.flush();
      return result;
    });
  }

  async locate<T>(kind: RecordKind, uniqueKey: string) {
    const r = await this.pool.query<{ merchant_id: string; data: T }>('SELECT merchant_id, data FROM records WHERE kind = $1 AND unique_key = $2 LIMIT 1', [kind, uniqueKey]);
    const row = r.rows[0];
    return row ? { merchantId: row.merchant_id, data: row.data } : undefined;
  }

  async getMerchant(id: string) {
    const r = await this.pool.query<{ data: MerchantRecord }>('SELECT data FROM merchants WHERE id = $1', [id]);
    return r.rows[0]?.data;
  }

  async findMerchantByPublicKey(publicKey: string) {
    const r = await this.pool.query<{ data: MerchantRecord }>('SELECT data FROM merchants WHERE public_api_key = $1', [publicKey]);
    return r.rows[0]?.data;
  }

  async putMerchantIfAbsent(merchant: MerchantRecord): Promise<boolean> {
    // No conflict target: a taken id and a taken public key (both unique) are both "present".
    const r = await this.pool.query('INSERT INTO merchants (id, public_api_key, data) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [merchant.id, merchant.public_api_key, JSON.stringify(merchant)]);
    return r.rowCount === 1;
  }

  async listMerchantIds() {
    const r = await this.pool.query<{ id: string }>('SELECT id FROM merchants ORDER BY id');
    return r.rows.map((row) => row.id);
  }

  async updateMerchant(id: string, change: (m: MerchantRecord) => MerchantRecord) {
    return this.locked(id, async (client) => {
      const r = await client.query<{ data: MerchantRecord }>('SELECT data FROM merchants WHERE id = $1 FOR UPDATE', [id]);
      const current = r.rows[0]?.data;
      if (!current) return undefined;
      const next = change(current);
      await client.query('UPDATE merchants SET public_api_key = $2, data = $3 WHERE id = $1', [id, next.public_api_key, JSON.stringify(next)]);
      return next;
    });
  }

  async resetMerchant(merchantId: string) {
    return this.locked(merchantId, async (client) => (await client.query('DELETE FROM records WHERE merchant_id = $1', [merchantId])).rowCount ?? 0);
  }

  async ready() {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close() {
    await this.pool.end();
  }
}
