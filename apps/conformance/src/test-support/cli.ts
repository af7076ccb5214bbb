import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceReport } from '../report.js';

/** The committed launcher of the built CLI: what `switchyard-conformance` runs once installed. */
export const BIN = fileURLToPath(new URL('../../bin/switchyard-conformance.js', import.meta.url));

export interface CliOptions {
  /** Another copy of the launcher (a deployed one). */
  bin?: string;
  cwd?: string;
  /** Added to this process's environment, minus what would leak into the run (INIT_CWD, CONFORMANCE_*). */
  env?: NodeJS.ProcessEnv;
  /** Replaces the environment altogether. */
  onlyEnv?: NodeJS.ProcessEnv;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function environment(options: CliOptions): NodeJS.ProcessEnv {
  if (options.onlyEnv) return options.onlyEnv;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'INIT_CWD' && !k.startsWith('CONFORMANCE_')));
  return { ...inherited, ...options.env };
}

/**
 * The budget for runs that judge a correct server, whose speed is not what they test: on a
 * machine running other suites beside this one, a route's median answer passed the default
 * 1,000 ms. The `slow_route` fault (catches.ts) proves the check fails a slow route.
 */
export const LATENCY_NOT_JUDGED = ['--latency-budget-ms', '600000'];

/** Runs the CLI as a user would: plain node, in its own process. */
export function spawnCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [options.bin ?? BIN, ...args],
      { cwd: options.cwd, env: environment(options), timeout: 360_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        resolve({ code: typeof code === 'number' ? code : -1, stdout, stderr });
      },
    );
  });
}

/** Runs the CLI with a JSON report and returns it. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliRun & { report: ConformanceReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-'));
  const out = join(dir, 'report.json');
  const run = await spawnCli([...args, '--reporter', 'json', '--output', out], options);
  try {
    return { ...run, report: JSON.parse(readFileSync(out, 'utf8')) as ConformanceReport };
  } catch (e) {
    throw new Error(`the CLI wrote no report (exit ${run.code}): ${run.stderr}\n${String(e)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
