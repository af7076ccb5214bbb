import { afterAll, beforeAll } from 'vitest';
import { createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';

/** A sandbox on a free port (memory store, or the given PostgreSQL schema), as the runner's tests start it. */
export async function startSandbox(database?: { databaseUrl: string; databaseSchema: string }) {
  const sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'silent', ...database });
  return { url: await sandbox.start(), stop: () => sandbox.stop() };
}

/**
 * One in-process sandbox for the test file, started before its tests and stopped after them;
 * `url()` is its address once started.
 */
export function useSandbox(): { url: () => string } {
  let started: Awaited<ReturnType<typeof startSandbox>> | undefined;
  beforeAll(async () => {
    started = await startSandbox();
  });
  afterAll(() => started?.stop());
  return {
    url: () => {
      if (!started) throw new Error('the sandbox is not started yet: call url() inside a test');
      return started.url;
    },
  };
}
