import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import type { Profile } from './config.js';
import { buildReport, parseTestName, type ConformanceReport, type TestOutcome } from './report.js';

export interface RunOptions {
  baseUrl: string;
  controlUrl?: string;
  publicKey?: string;
  secretKey?: string;
  accountId?: string;
  profile: Profile;
  fixturesFile?: string;
  /** A domain (`payments`), a check (`idempotency_replay`) or an operationId. */
  only?: string;
  seed?: number;
  /** Write a JUnit XML report here. */
  junitFile?: string;
}

const CONFIG = fileURLToPath(new URL('../conformance.config.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface TaskLike {
  type: string;
  name: string;
  tasks?: TaskLike[];
  mode?: string;
  result?: { state?: string; errors?: { message?: string }[]; note?: string; duration?: number };
}

function collect(tasks: TaskLike[], out: TestOutcome[]): void {
  for (const t of tasks) {
    if (t.tasks) collect(t.tasks, out);
    if (t.type !== 'test') continue;
    const parsed = parseTestName(t.name);
    if (!parsed) continue;
    const state = t.result?.state;
    const outcome = state === 'pass' ? 'pass' : state === 'fail' ? 'fail' : 'skip';
    const message = outcome === 'fail' ? (t.result?.errors ?? []).map((e) => e.message ?? '').join('\n') : outcome === 'skip' ? (t.result?.note ?? null) : null;
    out.push({ ...parsed, outcome, message, durationMs: t.result?.duration ?? 0 });
  }
}

/** Runs the suite against `baseUrl` in this process and returns the report. */
export async function runConformance(options: RunOptions): Promise<ConformanceReport> {
  const env: Record<string, string | undefined> = {
    CONFORMANCE_BASE_URL: options.baseUrl,
    CONFORMANCE_CONTROL_URL: options.controlUrl,
    CONFORMANCE_PUBLIC_KEY: options.publicKey,
    CONFORMANCE_SECRET_KEY: options.secretKey,
    CONFORMANCE_ACCOUNT_ID: options.accountId,
    CONFORMANCE_PROFILE: options.profile,
    CONFORMANCE_FIXTURES: options.fixturesFile,
    CONFORMANCE_SEED: options.seed === undefined ? undefined : String(options.seed),
  };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const started = performance.now();
  const escaped = options.only?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const vitest = await startVitest(
    'test',
    [],
    {
      config: CONFIG,
      root: ROOT,
      run: true,
      watch: false,
      // The CLI prints its own report; vitest's console reporter stays quiet.
      reporters: options.junitFile ? [['junit', { suiteName: 'switchyard conformance' }]] : [{}],
      outputFile: options.junitFile ? { junit: options.junitFile } : undefined,
      testNamePattern: escaped ? new RegExp(`(^| )${escaped}( |$)`) : undefined,
      passWithNoTests: true,
    },
    { logLevel: 'silent' },
  );
  const tests: TestOutcome[] = [];
  collect(vitest.state.getFiles() as unknown as TaskLike[], tests);
  await vitest.close();
  return buildReport(tests, { baseUrl: options.baseUrl, profile: options.profile, durationMs: performance.now() - started, includeSandbox: options.profile === 'sandbox' && (options.controlUrl ?? options.baseUrl) === options.baseUrl });
}
