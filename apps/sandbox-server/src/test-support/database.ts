import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresStore } from '../store/postgres.js';

/**
 * The PostgreSQL the tests run on: TEST_DATABASE_URL. Without it the PostgreSQL tests skip
 * locally, saying so under the name of the file that skips them; under CI=true they must run, so
 * a missing or unreachable database is an error.
 */
export function testDatabaseUrl(suite: string): string | undefined {
  const url = process.env.TEST_DATABASE_URL;
  if (!url && process.env.CI) throw new Error('CI=true: TEST_DATABASE_URL must point at a PostgreSQL (the PostgreSQL tests cannot be skipped in CI)');
  if (!url) console.warn(`${suite}: TEST_DATABASE_URL is not set, so its PostgreSQL tests are skipped (CI=true requires it)`);
  return url;
}

/** A schema of its own for one test file, so runs never collide; dropped by `drop()`. */
export async function freshSchema(url: string): Promise<{ schema: string; drop: () => Promise<void> }> {
  const schema = `sy_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  return {
    schema,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

/**
 * A schema of its own (`freshSchema`) and stores connected to it: one, or several as the pools of
 * replicas sharing it. `close()` closes every store connected and drops the schema.
 */
export async function freshSchemaStores(url: string): Promise<{ connect(poolSize: number): Promise<PostgresStore>; close(): Promise<void> }> {
  const { schema, drop } = await freshSchema(url);
  const connected: PostgresStore[] = [];
  return {
    connect: async (poolSize) => {
      const store = await PostgresStore.connect({ connectionString: url, schema, poolSize });
      connected.push(store);
      return store;
    },
    close: async () => {
      for (const store of connected) await store.close();
      await drop();
    },
  };
}
