import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshSchema, testDatabaseUrl } from '../test-support/database.js';
import { PostgresStore } from './postgres.js';
import { storeContract } from './store-contract.js';

const url = testDatabaseUrl();
const opened: { store: PostgresStore; drop: () => Promise<void> }[] = [];

afterAll(async () => {
  for (const o of opened) {
    await o.store.close();
    await o.drop();
  }
});

describe.skipIf(!url)('PostgreSQL', () => {
  storeContract('PostgresStore', async () => {
    const { schema, drop } = await freshSchema(url as string);
    const store = await PostgresStore.connect({ connectionString: url as string, schema, poolSize: 4 });
    opened.push({ store, drop });
    return store;
  });

  it('migration 2 indexes the due work of the records already there', async () => {
    const { schema, drop } = await freshSchema(url as string);
    const store = await PostgresStore.connect({ connectionString: url as string, schema, poolSize: 2 });
    opened.push({ store, drop });
    await store.withTransaction('m', async (tx) => {
      await tx.put('webhook_delivery', 'd', { id: 'd', state: 'pending', next_attempt_at: '2026-01-01T00:05:00.000Z', created_at: '2026-01-01T00:00:00.000Z' });
      await tx.put('customer', 'c', { id: 'c' });
    });
    // The database as version 1 left it, with these records in it.
    const client = new pg.Client({ connectionString: url as string, options: `-c search_path=${schema}` });
    await client.connect();
    await client.query('ALTER TABLE records DROP COLUMN due_lane, DROP COLUMN due_at; DELETE FROM schema_migrations WHERE version = 2');
    await client.end();
    expect(await store.migrate()).toEqual([2]);
    const due = await store.withTransaction('m', (tx) => tx.listDue<{ id: string }>('webhook_delivery', 'clock', Date.parse('2026-01-01T00:05:00.000Z'), 10));
    expect(due.map((d) => d.id)).toEqual(['d']);
  });
});
