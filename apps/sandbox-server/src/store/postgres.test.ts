import { afterAll, describe } from 'vitest';
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
});
