import type { SandboxConfig } from '../config.js';
import { freshSchema, testDatabaseUrl } from './database.js';

/** A store a suite runs on: the configuration that selects it, and how to clean it up. */
export interface StoreUnderTest {
  name: 'memory' | 'PostgreSQL';
  prepare(): Promise<{ config: Partial<SandboxConfig>; drop(): Promise<void> }>;
}

/**
 * The memory store, and PostgreSQL on TEST_DATABASE_URL in a schema of its own per run. Without
 * the variable the PostgreSQL runs are skipped, and testDatabaseUrl says so under `suite` (under
 * CI=true the variable is required: it throws).
 */
export function storesUnderTest(suite: string): StoreUnderTest[] {
  const url = testDatabaseUrl(suite);
  const memory: StoreUnderTest = { name: 'memory', prepare: async () => ({ config: {}, drop: async () => {} }) };
  if (!url) return [memory];
  const postgres: StoreUnderTest = {
    name: 'PostgreSQL',
    prepare: async () => {
      const { schema, drop } = await freshSchema(url);
      return { config: { databaseUrl: url, databaseSchema: schema }, drop };
    },
  };
  return [memory, postgres];
}
