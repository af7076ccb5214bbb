import { afterAll, beforeAll } from 'vitest';
import type { SandboxConfig } from '../config.js';
import { freshSchema, testDatabaseUrl } from './database.js';
import { startSandbox, type RunningSandbox } from './harness.js';

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

/**
 * A sandbox on `store` (with `overrides` on top of the store's configuration) for the enclosing
 * describe: prepared and started before its tests, stopped and its schema dropped after. The
 * returned object is filled in by the time the tests run. A suite's own setup goes in hooks of its
 * own: a `beforeAll` registered after this call runs once the sandbox is up, and one registered
 * before it (vitest runs `afterAll` hooks in reverse) is torn down only after the sandbox stopped.
 */
export function sandboxOn(store: StoreUnderTest, overrides: Partial<SandboxConfig> = {}): RunningSandbox {
  const sb: Partial<RunningSandbox> = {};
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const prepared = await store.prepare();
    drop = prepared.drop;
    Object.assign(sb, await startSandbox({ ...prepared.config, ...overrides }));
  });
  // Unset when prepare() or the start failed: cleans up what there is.
  afterAll(async () => {
    await sb.stop?.();
    await drop?.();
  });
  return sb as RunningSandbox;
}
