import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { SecretKeyDigests } from '../runtime/secret-keys.js';
import { freshSchema, testDatabaseUrl } from '../test-support/database.js';
import { merchantRecord } from '../test-support/merchant-record.js';
import { MIGRATIONS } from './migrations/index.js';
import { PostgresStore } from './postgres.js';
import { storeContract } from '../test-support/store-contract.js';
import { MerchantChanged, type MerchantRecord } from './types.js';

const url = testDatabaseUrl('postgres.test.ts');
const opened: PostgresStore[] = [];
const schemas: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const store of opened) await store.close();
  for (const drop of schemas) await drop();
});

async function schema(): Promise<string> {
  const { schema: name, drop } = await freshSchema(url as string);
  schemas.push(drop);
  return name;
}

async function connect(name: string, secretKeyPepper?: string, merchantFreshForMs?: number): Promise<PostgresStore> {
  const store = await PostgresStore.connect({ connectionString: url as string, schema: name, poolSize: 4, secretKeyPepper, merchantFreshForMs });
  opened.push(store);
  return store;
}

/** Runs SQL on the schema directly, as an older sandbox or an operator would. */
async function sql<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${name}` });
  await client.connect();
  try {
    const result = (await client.query<R>(text, values)) as pg.QueryResult<R> | pg.QueryResult<R>[];
    // Several statements answer one result each: the last one's rows.
    return (Array.isArray(result) ? result[result.length - 1] : result)?.rows ?? [];
  } finally {
    await client.end();
  }
}

const merchant = (id: string, digest: string) => merchantRecord(id, { secret_key_digest: digest });

/** How many transactions wait for the merchant's lock (advisory locks are the database's, not a schema's). */
const WAITING_FOR_MERCHANT = `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 7)`;

describe('PostgresStore.connect', () => {
  it('refuses a schema name it cannot quote safely or PostgreSQL would change, before connecting', async () => {
    // Nothing listens on port 1: a refusal that needed the database would be ECONNREFUSED instead.
    for (const schema of ['bad"schema', 'Sandbox', 'pg_sandbox', 'a'.repeat(64)]) {
      await expect(PostgresStore.connect({ connectionString: 'postgres://u@127.0.0.1:1/test', schema })).rejects.toThrow(`invalid schema name "${schema}"`);
    }
  });
});

describe.skipIf(!url)('PostgreSQL', () => {
  storeContract('PostgresStore', async () => connect(await schema()), async (_, merchantId) => (await sql<{ n: number }>('public', WAITING_FOR_MERCHANT, [merchantId]))[0]?.n !== 0);

  // The memory store runs a merchant's transactions one at a time; PostgreSQL only those that meet
  // (docs/scaling.md). If `a` held the merchant, `b` could never commit while `a` waits for it.
  it('runs transactions of one merchant that touch different records side by side', async () => {
    const store = await connect(await schema());
    let bDone: () => void = () => undefined;
    const bCommitted = new Promise<void>((r) => (bDone = r));
    const a = store.withTransaction('m', async (tx) => {
      await tx.get('payment', 'a');
      await tx.put('payment', 'a', { n: 1 });
      await bCommitted;
    });
    await store.withTransaction('m', async (tx) => {
      await tx.get('payment', 'b');
      await tx.put('payment', 'b', { n: 2 });
    });
    bDone();
    await a;
    expect(await store.withTransaction('m', (tx) => tx.list('payment'))).toEqual([{ n: 2 }, { n: 1 }]);
  });

  it('makes a whole-merchant change wait for the merchant\'s open transactions', async () => {
    const name = await schema();
    const store = await connect(name);
    // Advisory locks are the database's, not the schema's: a merchant id no other run uses.
    const id = `m_${name}`;
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let opened: () => void = () => undefined;
    const isOpen = new Promise<void>((r) => (opened = r));
    const tx = store.withTransaction(id, async (t) => {
      await t.get('payment', 'p');
      await t.put('payment', 'p', { n: 1 });
      opened();
      await held;
    });
    await isOpen;
    const reset = store.resetMerchant(id);
    // Asked of the database, not timed: the reset is queued behind the transaction's shared lock.
    const waiting = `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 7)`;
    while ((await sql<{ n: number }>(name, waiting, [id]))[0]?.n === 0) await new Promise((r) => setImmediate(r));
    release();
    await tx;
    // It deleted what the transaction committed while it waited.
    expect(await reset).toBe(1);
  });

  // Authentication's round trip is saved by the record each process keeps (merchant-cache.ts);
  // a change through another replica is found by the check in the next transaction.
  it('authenticates from the record it keeps, and finds a change made through another replica when a transaction checks it', async () => {
    const name = await schema();
    // Held for a minute: what finds the change must be the check, not the expiry.
    const [one, two] = [await connect(name, undefined, 60_000), await connect(name)];
    const id = `m_${name}`;
    await one.putMerchantIfAbsent({ ...merchant(id, 'd'), public_api_key: `pk_${name}` });
    const kept = (await one.findMerchantByPublicKey(`pk_${name}`)) as MerchantRecord;
    await two.updateMerchant(id, (m) => ({ ...m, clock_offset_seconds: 60 }));
    expect(await one.findMerchantByPublicKey(`pk_${name}`)).toBe(kept);
    await expect(one.withCheckedTransaction(kept, (tx) => tx.put('customer', 'c', { id: 'c' }), () => undefined)).rejects.toBeInstanceOf(MerchantChanged);
    const fresh = await one.getMerchant(id);
    expect(fresh?.clock_offset_seconds).toBe(60);
    expect(await one.findMerchantByPublicKey(`pk_${name}`)).toBe(fresh);
    // A record this store did not read has no version to check against: it counts as changed.
    await expect(one.withCheckedTransaction({ ...(fresh as MerchantRecord) }, async () => 'ran', () => undefined)).rejects.toBeInstanceOf(MerchantChanged);
    expect(await one.withTransaction(id, (tx) => tx.get('customer', 'c'))).toBeUndefined();
  });

  it('takes a keyword as its schema: the name is quoted', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // The name is fixed and other runs may share the database: one run at a time holds it.
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', ['postgres.test.ts: the schema "order"']);
    try {
      const store = await PostgresStore.connect({ connectionString: url as string, schema: 'order', poolSize: 1 });
      try {
        expect(await store.putMerchantIfAbsent(merchant('m_order', 'd'))).toBe(true);
        expect(await store.getMerchant('m_order')).toMatchObject({ id: 'm_order' });
      } finally {
        await store.close();
      }
      expect((await admin.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'order' AND tablename = 'merchants'")).rows).toEqual([{ n: 1 }]);
    } finally {
      await admin.query('DROP SCHEMA IF EXISTS "order" CASCADE');
      await admin.end();
    }
  });

  describe('merchant secret keys at rest (migration 3, docs/deploy.md)', () => {
    const PEPPER = 'an-operator-pepper-of-at-least-32-characters';

    it('keeps a generated pepper in the database: every replica and restart digests alike', async () => {
      const name = await schema();
      const first = await connect(name);
      expect(await first.putMerchantIfAbsent(merchant('m1', first.secretKeys.digest('sk_one')))).toBe(true);
      const second = await connect(name);
      const stored = await second.getMerchant('m1');
      expect(second.secretKeys.matches(stored?.secret_key_digest ?? '', 'sk_one')).toBe(true);
      expect(second.secretKeys.matches(stored?.secret_key_digest ?? '', 'sk_two')).toBe(false);
    });

    it('with a pepper from outside keeps only its check, and refuses to open with another pepper or none', async () => {
      const name = await schema();
      const store = await connect(name, PEPPER);
      expect(store.secretKeys.digest('sk')).toBe(new SecretKeyDigests(PEPPER).digest('sk'));
      const settings = await sql<{ name: string; value: string }>(name, 'SELECT name, value FROM sandbox_settings');
      expect(settings.map((r) => r.name)).toEqual(['secret_key_pepper_check']);
      expect(JSON.stringify(settings)).not.toContain(PEPPER);
      expect((await connect(name, PEPPER)).secretKeys.digest('sk')).toBe(store.secretKeys.digest('sk'));
      await expect(connect(name, `${PEPPER}-other`)).rejects.toThrow(/is not the pepper this database's merchant secret keys were stored with/);
      await expect(connect(name)).rejects.toThrow(/start with the same SANDBOX_SECRET_KEY_PEPPER/);
    });

    it('migrates merchants stored with their key in clear to digests, leaving no clear key behind', async () => {
      const name = await schema();
      // The database as migration 1 left it, with a merchant written by the sandbox of that time.
      const v1 = MIGRATIONS.find((m) => m.version === 1);
      if (!v1 || !('sql' in v1)) throw new Error('migration 1 is SQL');
      await sql(name, `${v1.sql}; CREATE TABLE schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()); INSERT INTO schema_migrations (version, name) VALUES (1, 'records')`);
      const old = { id: 'mer_old', name: 'Old', public_api_key: 'pk_old', private_secret_key: 'sandbox_sk_old_in_clear', account_ids: [], fingerprint_key: 'k', clock_offset_seconds: 4, created_at: '2026-01-01T00:00:00.000Z' };
      await sql(name, 'INSERT INTO merchants (id, public_api_key, data) VALUES ($1, $2, $3)', [old.id, old.public_api_key, JSON.stringify(old)]);
      const store = await connect(name, PEPPER);
      const rows = await sql<{ data: unknown }>(name, 'SELECT data FROM merchants');
      expect(JSON.stringify(rows)).not.toContain('sandbox_sk_old_in_clear');
      const migrated = await store.findMerchantByPublicKey('pk_old');
      expect(migrated).toEqual({ ...merchant('mer_old', new SecretKeyDigests(PEPPER).digest('sandbox_sk_old_in_clear')), name: 'Old', public_api_key: 'pk_old', clock_offset_seconds: 4 });
      expect(store.secretKeys.matches(migrated?.secret_key_digest ?? '', 'sandbox_sk_old_in_clear')).toBe(true);
      expect((await sql<{ version: number }>(name, 'SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    });
  });

  // The planner takes a merchant (or a kind) that its statistics have not seen for one with almost
  // no records. With an index in insertion order on the primary key's leading columns it looked
  // records up by id along that index, reading every record of the kind (migration 5).
  it('looks a record up by its primary key, also for a merchant the statistics have not seen', async () => {
    const name = await schema();
    const store = await connect(name);
    // Autovacuum analyzes on its own schedule; here only the test does.
    await sql(name, 'ALTER TABLE records SET (autovacuum_enabled = false)');
    const put = (m: string, i: number) => store.withTransaction(m, (tx) => tx.put('customer', `${m}-${i}`, { i }, `${m}-k${i}`));
    for (let i = 0; i < 50; i += 1) await put('seen', i);
    await sql(name, 'ANALYZE records');
    for (let i = 0; i < 600; i += 1) await put('unseen', i);
    const planOf = async (where: string) =>
      (await sql<{ 'QUERY PLAN': string }>(name, `SET enable_seqscan = off; EXPLAIN SELECT data FROM records WHERE ${where}`)).map((r) => r['QUERY PLAN']).join('\n');
    expect(await planOf("merchant_id = 'unseen' AND kind = 'customer' AND id = 'unseen-7'")).toMatch(/Index Scan using records_pkey/);
    // Reads in insertion order still go along their index, forwards and backwards.
    expect(await planOf("merchant_id = 'unseen' AND kind = 'customer' AND seq > 0 ORDER BY seq DESC LIMIT 5")).toMatch(/Index Scan Backward using records_in_insertion_order/);
    expect(await store.withTransaction('unseen', (tx) => tx.newest<{ i: number }>('customer', 2))).toEqual({ total: 600, items: [{ i: 599 }, { i: 598 }] });
  });

  it('migration 2 indexes the due work of the records already there', async () => {
    const name = await schema();
    const store = await connect(name);
    await store.withTransaction('m', async (tx) => {
      await tx.put('webhook_delivery', 'd', { id: 'd', state: 'pending', next_attempt_at: '2026-01-01T00:05:00.000Z', created_at: '2026-01-01T00:00:00.000Z' });
      await tx.put('customer', 'c', { id: 'c' });
    });
    // The database as version 1 left it, with these records in it; the next start migrates it.
    await sql(name, 'ALTER TABLE records DROP COLUMN due_lane, DROP COLUMN due_at; DELETE FROM schema_migrations WHERE version = 2');
    const restarted = await connect(name);
    expect((await sql<{ version: number }>(name, 'SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    const due = await restarted.withTransaction('m', (tx) => tx.listDue<{ id: string }>('webhook_delivery', 'clock', Date.parse('2026-01-01T00:05:00.000Z'), 10));
    expect(due.map((d) => d.id)).toEqual(['d']);
  });
});
