import { fileURLToPath } from 'node:url';
import { startVitest, type TestModule } from 'vitest/node';
import { controlApiExclusion, type Profile } from './config.js';
import { checksOf, controlApiCases } from './harness/cases.js';
import { buildReport, firstLine, parseTestName, type ConformanceReport, type Exclusion, type TestOutcome } from './report.js';

export interface RunOptions {
  baseUrl: string;
  controlUrl?: string;
  publicKey?: string;
  secretKey?: string;
  accountId?: string;
  profile: Profile;
  /** An absolute path, or one relative to this process's working directory. */
  fixturesFile?: string;
  /** A domain (`payments`), a check (`idempotency_replay`) or an operationId, or several, comma-separated. */
  only?: string;
  seed?: number;
  /** At most this many invalid bodies per route (a seeded pick). */
  maxNegative?: number;
  /** The median time a route's answers may take. */
  latencyBudgetMs?: number;
  /** Requests the run may send, and how many per second at most (staging defaults: config.ts, STAGING_BUDGET). */
  maxRequests?: number;
  ratePerSecond?: number;
  /** Record every exchange to this file, secrets masked (harness/recording.ts). */
  recordFile?: string;
  /** Write a JUnit XML report here (an absolute path, or one relative to this process's working directory). */
  junitFile?: string;
}

/**
 * The suite sits next to this module: `src/suites/*.conformance.ts` run through tsx,
 * `dist/suites/*.conformance.js` once built (and wherever the package is installed).
 */
const SUITES = fileURLToPath(new URL('./suites/', import.meta.url));

/** The outcomes of the checks that ran, and how many never started (skipped with no note). */
function collect(modules: TestModule[]): { tests: TestOutcome[]; notRun: Omit<TestOutcome, 'outcome' | 'message'>[] } {
  const tests: TestOutcome[] = [];
  const notRun: Omit<TestOutcome, 'outcome' | 'message'>[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const parsed = parseTestName(test.name);
      if (!parsed) continue;
      const durationMs = test.diagnostic()?.duration ?? 0;
      const result = test.result();
      // A passing check may report what it measured (the latency budget's median) as an annotation.
      const notes = test.annotations().map((a) => a.message);
      if (result.state === 'passed') tests.push({ ...parsed, outcome: 'pass', message: notes.length ? notes.join('\n') : null, durationMs });
      else if (result.state === 'failed') tests.push({ ...parsed, outcome: 'fail', message: result.errors.map((e) => e.message).join('\n'), durationMs });
      // The suite always skips with a note (its reason); a test without one never started.
      else if (result.state === 'skipped' && result.note) tests.push({ ...parsed, outcome: 'skip', message: result.note, durationMs });
      else notRun.push({ ...parsed, durationMs });
    }
  }
  return { tests, notRun };
}

/** Errors outside any test: the suite's module (its set-up), a suite's hooks, unhandled rejections. */
function errorsOutsideChecks(modules: TestModule[], unhandled: unknown[]): string[] {
  const fromTasks = modules.flatMap((m) => [m, ...m.children.allSuites()].flatMap((s) => s.errors()).map((e) => e.message));
  return [...fromTasks, ...unhandled.map((e) => (e as Error).message ?? String(e))];
}

function controlApiExcluded(options: RunOptions): Exclusion[] {
  const why = controlApiExclusion(options);
  if (why === undefined) return [];
  const cases = controlApiCases();
  return [{ checks: cases.reduce((n, c) => n + checksOf(c).length, 0), what: `on the ${cases.length} routes of the /sandbox control API`, why }];
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
    CONFORMANCE_MAX_NEGATIVE: options.maxNegative === undefined ? undefined : String(options.maxNegative),
    CONFORMANCE_LATENCY_BUDGET_MS: options.latencyBudgetMs === undefined ? undefined : String(options.latencyBudgetMs),
    CONFORMANCE_MAX_REQUESTS: options.maxRequests === undefined ? undefined : String(options.maxRequests),
    CONFORMANCE_RATE: options.ratePerSecond === undefined ? undefined : String(options.ratePerSecond),
    CONFORMANCE_RECORD: options.recordFile,
  };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const started = performance.now();
  // Several selections, comma-separated: `createPayment,masking`.
  const escaped = options.only
    ?.split(',')
    .map((o) => o.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');
  const vitest = await startVitest(
    'test',
    [],
    {
      // No config file: the settings are here, so the suite runs the same from the sources, from
      // dist and from wherever the package is installed.
      config: false,
      root: SUITES,
      include: ['*.conformance.{ts,js}'],
      environment: 'node',
      // Files run one after another against one server.
      fileParallelism: false,
      // A worker thread rather than a child process: the suite needs nothing a thread lacks (its
      // own working directory, signals), and a run took 15 to 20 % less CPU (7.3 s against 9.2 s
      // for the whole suite against a local sandbox, 2.8 s against 3.4 s for one route), which
      // counts most where runs are many and short: CI's, and the runner's own tests.
      pool: 'threads',
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // Nothing to write next to an installed package.
      cache: false,
      run: true,
      watch: false,
      // The CLI prints its own report; vitest's console reporter stays quiet.
      reporters: options.junitFile ? [['junit', { suiteName: 'switchyard conformance' }]] : [{}],
      outputFile: options.junitFile ? { junit: options.junitFile } : undefined,
      testNamePattern: escaped ? new RegExp(`(^| )(${escaped})( |$)`) : undefined,
      passWithNoTests: true,
    },
    { logLevel: 'silent' },
  );
  const modules = vitest.state.getTestModules();
  const { tests, notRun } = collect(modules);
  const errors = errorsOutsideChecks(modules, vitest.state.getUnhandledErrors());
  await vitest.close();
  const excluded = controlApiExcluded(options);
  if (errors.length > 0 || options.only === undefined) {
    const reason = errors[0] === undefined ? 'not run, or skipped with no reason given by the suite' : `not run: the suite stopped before it (${firstLine(errors[0])})`;
    tests.push(...notRun.map((t) => ({ ...t, outcome: 'skip' as const, message: reason })));
  } else if (notRun.length > 0) {
    excluded.push({ checks: notRun.length, what: 'outside the selection', why: `--only ${options.only}` });
  }
  return buildReport(tests, {
    baseUrl: options.baseUrl,
    profile: options.profile,
    only: options.only ?? null,
    durationMs: performance.now() - started,
    includeSandbox: controlApiExclusion(options) === undefined,
    excluded,
    errors,
  });
}
