/**
 * Vitest's global setup: bundles the sandbox's CLI once per test run, as the package's `bin` and
 * `pnpm sandbox` run it, for the tests that start it as a process of its own (cli.ts). Started
 * through tsx from its sources instead, each such process spent seconds compiling and resolving
 * some four hundred modules before it could answer; the bundle starts in well under one.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { bundleSandbox } from '@switchyard/tooling/sandbox-bundle';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled CLI's file, for `node <file>`. */
    cliBundle: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // Below the package with no package.json in between, as the bundle needs (sandbox-bundle.js);
  // one folder per run, so runs side by side never share it.
  const dir = join(fileURLToPath(new URL('../..', import.meta.url)), 'node_modules', '.cache', `switchyard-cli-${process.pid}`);
  const outfile = join(dir, 'main.js');
  await bundleSandbox(outfile);
  project.provide('cliBundle', outfile);
  return () => rmSync(dir, { recursive: true, force: true });
}
