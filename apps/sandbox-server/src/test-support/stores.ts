import { afterAll, beforeAll, describe } from 'vitest';
import type { SandboxConfig } from '../config.js';
import type { Sandbox, SandboxOverrides } from '../sandbox.js';
import { freshSchema, testDatabaseUrl } from './database.js';
import { startSandbox, type RunningSandbox } from './harness.js';

/** A store a suite runs on: the configuration that selects it, and how to clean it up. */
export interface StoreUnderTest {
  name: 'memory' | 'PostgreSQL';
  prepare(): Promise<{ config: Partial<SandboxConfig>; drop(): Promise<void> }>;
}

/** The memory store: the default, and the one store of a run without a database. */
export const MEMORY: StoreUnderTest = { name: 'memory', prepare: async () => ({ config: {}, drop: async () => {} }) };

/**
 * The memory store, and PostgreSQL on TEST_DATABASE_URL in a schema of its own per run. Without
 * the variable the PostgreSQL runs are skipped, and testDatabaseUrl says so under `suite` (under
 * CI=true the variable is required: it throws).
 */
export function storesUnderTest(suite: string): StoreUnderTest[] {
  const url = testDatabaseUrl(suite);
  const memory = MEMORY;
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
 * A sandbox that is started by a suite's hook: until then, reading it throws, so a test that runs
 * too early fails on its own line instead of on an undefined url.
 */
class SuiteSandbox implements RunningSandbox {
  private running: RunningSandbox | undefined;

  start(running: RunningSandbox): void {
    this.running = running;
  }

  private get started(): RunningSandbox {
    if (!this.running) throw new Error('the sandbox is not started yet: read it in a test or a hook');
    return this.running;
  }

  get url(): string {
    return this.started.url;
  }

  get sandbox(): Sandbox {
    return this.started.sandbox;
  }

  async stop(): Promise<void> {
    await this.running?.stop();
  }
}

/**
 * A sandbox on `store` (with `overrides` on top of the store's configuration, and `parts` such as a
 * logger of the test's) for the enclosing describe: prepared and started before its tests, stopped
 * and its schema dropped after. A suite's
 * own setup goes in hooks of its own: a `beforeAll` registered after this call runs once the
 * sandbox is up, and one registered before it (vitest runs `afterAll` hooks in reverse) is torn
 * down only after the sandbox stopped.
 */
export function sandboxOn(store: StoreUnderTest, overrides: Partial<SandboxConfig> = {}, parts: Omit<SandboxOverrides, 'store'> = {}): RunningSandbox {
  const sb = new SuiteSandbox();
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const prepared = await store.prepare();
    drop = prepared.drop;
    sb.start(await startSandbox({ ...prepared.config, ...overrides }, parts));
  });
  // Not started when prepare() or the start failed: cleans up what there is.
  afterAll(async () => {
    await sb.stop();
    await drop?.();
  });
  return sb;
}

/**
 * The suite `tests` once per store under test (`$name` in `title` names the store), each run with
 * a sandbox of its own on that store (`sandboxOn`). `suite` names the file in the note that says
 * its PostgreSQL runs are skipped.
 */
export function sandboxPerStore(
  suite: string,
  title: string,
  tests: (sb: RunningSandbox, store: StoreUnderTest) => void,
  overrides: Partial<SandboxConfig> = {},
): void {
  describe.each(storesUnderTest(suite))(title, (store) => tests(sandboxOn(store, overrides), store));
}

/** A sandbox on the memory store for the enclosing suite (or file), as `sandboxOn` starts and stops it. */
export const sandboxForSuite = (overrides: Partial<SandboxConfig> = {}): RunningSandbox => sandboxOn(MEMORY, overrides);
