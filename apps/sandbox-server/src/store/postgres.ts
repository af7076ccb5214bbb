import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import type { SecretKeyDigests } from '../runtime/secret-keys.js';
import { MERCHANT_FRESH_FOR_MS, MerchantCache } from './merchant-cache.js';
import { MIGRATIONS } from './migrations/index.js';
import { merchantLockKey } from './postgres-sql.js';
import { TxSession, type MerchantCheck } from './postgres-tx.js';
import { secretKeysOf } from './secret-key-pepper.js';
import { MerchantChanged, type MerchantRecord, type RecordKind, type Store, type Tx } from './types.js';
import { DEFAULT_POOL_SIZE, SCHEMA_NAME, SCHEMA_NAME_FORM } from '../config.js';

/** PostgreSQL ended the transaction to break a deadlock (two transactions each holding a record the other wants). */
const DEADLOCK_DETECTED = '40P01';
/** Runs of a transaction that lost a deadlock: each time the other one went through. */
const DEADLOCK_RUNS = 4;

export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema to use (created if missing); default `public`. Tests give each run its own. Of the form `SCHEMA_NAME`. */
  schema?: string;
  poolSize?: number;
  /** Key of the merchant secret-key digests; without it the database keeps a generated one. */
  secretKeyPepper?: string;
  /**
   * How long a merchant record read for authentication answers it again (`MerchantCache`).
   * Tests hold it longer, so that what finds a change through another replica is the check, not the expiry.
   */
  merchantFreshForMs?: number;
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
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
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

/** A merchant's row as read: its record and the row's version (`xmin`, see `MerchantCache`). */
interface MerchantRow {
  data: MerchantRecord;
  version: string;
}

/**
 * The durable store. Records live in one table keyed by (merchant, kind, id), with a partial
 * unique index for secondary keys. A transaction holds the records it reads with advisory locks
 * (`TxSession`), across all sandbox replicas on the database, and the merchant's lock shared: a
 * change to the whole merchant (its clock, a reset) takes that lock alone and waits for them.
 */
export class PostgresStore implements Store {
  private readonly merchants: MerchantCache;

  private constructor(
    private readonly pool: pg.Pool,
    readonly secretKeys: SecretKeyDigests,
    merchantFreshForMs: number,
  ) {
    this.merchants = new MerchantCache(merchantFreshForMs);
  }

  static async connect(options: PostgresStoreOptions): Promise<PostgresStore> {
    const schema = options.schema ?? 'public';
    // The CLI refuses a bad name before it gets here (config.ts); this guards other callers, and the quoting.
    if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name "${schema}": a schema name is ${SCHEMA_NAME_FORM}`);
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      options: `-c search_path="${schema}"`,
    });
    pool.on('error', () => undefined);
    try {
      return new PostgresStore(pool, await migrate(pool, schema, options.secretKeyPepper), options.merchantFreshForMs ?? MERCHANT_FRESH_FOR_MS);
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  /** A transaction that excludes every other of the merchant: it takes the merchant's lock alone. */
  private whole<T>(merchantId: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(${merchantLockKey(merchantId)})`);
      return fn(client);
    });
  }

  withTransaction<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.retryingDeadlocks(merchantId, fn);
  }

  withCheckedTransaction<T>(merchant: MerchantRecord, fn: (tx: Tx) => Promise<T>, current: () => void, alone = false): Promise<T> {
    const version = this.merchants.versionOf(merchant);
    // A record this store never read has no version to compare: it is treated as changed.
    if (version === undefined) return Promise.reject(new MerchantChanged(merchant.id));
    const check = { version, current };
    // No deadlock to retry alone: every other transaction of the merchant waits before its first record lock.
    return alone ? this.transaction(merchant.id, true, fn, check) : this.retryingDeadlocks(merchant.id, fn, check);
  }

  private async retryingDeadlocks<T>(merchantId: string, fn: (tx: Tx) => Promise<T>, check?: MerchantCheck): Promise<T> {
    for (let run = 1; ; run += 1) {
      try {
        return await this.transaction(merchantId, false, fn, check);
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK_DETECTED || run >= DEADLOCK_RUNS) throw error;
      }
    }
  }

  withTransactionAlone<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    // No deadlock to retry: every other transaction of the merchant waits before its first record lock.
    return this.transaction(merchantId, true, fn);
  }

  /** One run of `fn` in a transaction on one pooled connection: committed, or rolled back and thrown. */
  private async transaction<T>(merchantId: string, alone: boolean, fn: (tx: Tx) => Promise<T>, check?: MerchantCheck): Promise<T> {
    const client = await this.pool.connect();
    const session = new TxSession(client, merchantId, alone, check);
    try {
      const result = await fn(session.tx);
      await session.commit();
      return result;
    } catch (error) {
      await session.rollback();
      throw error;
    } finally {
      client.release();
    }
  }

  async locate<T>(kind: RecordKind, uniqueKey: string) {
    const r = await this.pool.query<{ merchant_id: string; data: T }>('SELECT merchant_id, data FROM records WHERE kind = $1 AND unique_key = $2 LIMIT 1', [kind, uniqueKey]);
    const row = r.rows[0];
    return row ? { merchantId: row.merchant_id, data: row.data } : undefined;
  }

  async getMerchant(id: string) {
    const read = this.merchants.startRead();
    const r = await this.pool.query<MerchantRow>({ name: 'merchant_by_id', text: 'SELECT data, xmin::text AS version FROM merchants WHERE id = $1', values: [id] });
    const row = r.rows[0];
    // Refreshes a kept merchant; the sweeps over every merchant do not fill the cache.
    return row ? this.merchants.keep(row.data, row.version, read, false) : undefined;
  }

  async findMerchantByPublicKey(publicKey: string) {
    const cached = this.merchants.get(publicKey);
    if (cached) return cached;
    const read = this.merchants.startRead();
    // Prepared once per connection, not parsed and planned each time.
    const r = await this.pool.query<MerchantRow>({ name: 'merchant_by_public_key', text: 'SELECT data, xmin::text AS version FROM merchants WHERE public_api_key = $1', values: [publicKey] });
    const row = r.rows[0];
    return row ? this.merchants.keep(row.data, row.version, read) : undefined;
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
    const updated = await this.whole(id, async (client) => {
      const r = await client.query<MerchantRow>('SELECT data, xmin::text AS version FROM merchants WHERE id = $1 FOR UPDATE', [id]);
      const row = r.rows[0];
      if (!row) return undefined;
      const next = change(structuredClone(row.data));
      // Unchanged, the row is not written: a new version would send every replica's next request of the merchant round again.
      if (isDeepStrictEqual(next, row.data)) return { next, version: row.version };
      const written = await client.query<{ version: string }>('UPDATE merchants SET public_api_key = $2, data = $3 WHERE id = $1 RETURNING xmin::text AS version', [id, next.public_api_key, JSON.stringify(next)]);
      return { next, version: written.rows[0]?.version as string };
    });
    // Kept once committed, as the newest: a read that started before the commit may answer the old record.
    return updated && this.merchants.keep(updated.next, updated.version, this.merchants.startRead(), false);
  }

  async resetMerchant(merchantId: string) {
    return this.whole(merchantId, async (client) => (await client.query('DELETE FROM records WHERE merchant_id = $1', [merchantId])).rowCount ?? 0);
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
