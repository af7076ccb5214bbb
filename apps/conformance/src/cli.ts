import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InputError, loadFixtures, missingInputs, PROFILES, type Profile } from './config.js';
import { diffMain } from './diff/command.js';
import { probe } from './probe.js';
import { renderPretty, verdictOf } from './report.js';
import { runConformance, type RunOptions } from './run.js';

const USAGE = `switchyard-conformance --base-url URL [options]

  --base-url <url>       the server under test                        CONFORMANCE_BASE_URL
  --control-url <url>    where /sandbox answers, if not at base-url     CONFORMANCE_CONTROL_URL
  --public-key <key>     API keys (staging; the sandbox profile makes   CONFORMANCE_PUBLIC_KEY
  --secret-key <key>     its own tenants)                               CONFORMANCE_SECRET_KEY
  --account-id <uuid>    an account of those keys (staging)             CONFORMANCE_ACCOUNT_ID
  --profile <p>          sandbox (default) or staging                   CONFORMANCE_PROFILE
  --fixtures <file>      ids of states to use on staging                CONFORMANCE_FIXTURES
  --only <x[,y]>         domains, checks or operationIds                CONFORMANCE_ONLY
  --reporter <r>         pretty (default), json or junit                CONFORMANCE_REPORTER
  --output <path>        where the json or junit report goes (junit:    CONFORMANCE_OUTPUT
                         conformance-reports/conformance.xml)
  --seed <n>             seed of names and of the invalid bodies picked CONFORMANCE_SEED
  --max-negative <n>     invalid bodies per route (default: all; 6 on    CONFORMANCE_MAX_NEGATIVE
                         staging, whose request budget is small)
  --latency-budget-ms <n> median time a route may take (default 1000)   CONFORMANCE_LATENCY_BUDGET_MS
  --max-requests <n>     requests the run may send (staging: 3000)      CONFORMANCE_MAX_REQUESTS
  --rate <n>             requests per second at most (staging: 20)      CONFORMANCE_RATE
  --record <file>        save every exchange, secrets masked, for diff  CONFORMANCE_RECORD

switchyard-conformance diff --base-url A --compare-url B [options]  (diff --help)

Relative paths are taken from the directory the command was run in.
Exit: 0 every check that ran passed, 1 a check failed, 2 the run proves nothing
(bad options, unreadable fixtures, a server that does not answer, no check ran).
`;

const REPORTERS = ['pretty', 'json', 'junit'] as const;

/** Where reports go when no --output is given: one folder, git-ignored, rather than files left at the caller's root. */
export const REPORTS_DIR = 'conformance-reports';

/**
 * A path the user typed, made absolute against the directory they ran the command in: pnpm runs
 * package scripts in the package's directory and leaves the caller's in INIT_CWD.
 */
export function callerPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.INIT_CWD || process.cwd(), path);
}

export function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        'base-url': { type: 'string' },
        'control-url': { type: 'string' },
        'public-key': { type: 'string' },
        'secret-key': { type: 'string' },
        'account-id': { type: 'string' },
        profile: { type: 'string' },
        fixtures: { type: 'string' },
        only: { type: 'string' },
        reporter: { type: 'string' },
        output: { type: 'string' },
        seed: { type: 'string' },
        'latency-budget-ms': { type: 'string' },
        'max-negative': { type: 'string' },
        'max-requests': { type: 'string' },
        rate: { type: 'string' },
        record: { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new InputError((error as Error).message);
  }
}

/** The options of a run, every one checked before anything is sent (InputError otherwise). */
export function settingsOf(values: ReturnType<typeof parse>, env: NodeJS.ProcessEnv): RunOptions & { reporter: (typeof REPORTERS)[number]; output: string | undefined } {
  const baseUrl = values['base-url'] ?? env.CONFORMANCE_BASE_URL;
  if (!baseUrl) throw new InputError('--base-url is required (see --help)');
  const profile = values.profile ?? env.CONFORMANCE_PROFILE ?? 'sandbox';
  if (!PROFILES.includes(profile as Profile)) throw new InputError(`--profile must be sandbox or staging, got ${profile}`);
  const reporter = values.reporter ?? env.CONFORMANCE_REPORTER ?? 'pretty';
  if (!REPORTERS.includes(reporter as (typeof REPORTERS)[number])) throw new InputError(`--reporter must be pretty, json or junit, got ${reporter}`);
  const outputArg = values.output ?? env.CONFORMANCE_OUTPUT ?? (reporter === 'junit' ? `${REPORTS_DIR}/conformance.xml` : undefined);
  const seedArg = values.seed ?? env.CONFORMANCE_SEED;
  if (seedArg !== undefined && !/^\d+$/.test(seedArg)) throw new InputError(`--seed must be a whole number, got ${seedArg}`);
  const budgetArg = values['latency-budget-ms'] ?? env.CONFORMANCE_LATENCY_BUDGET_MS;
  if (budgetArg !== undefined && !(/^\d+$/.test(budgetArg) && Number(budgetArg) > 0)) throw new InputError(`--latency-budget-ms must be a whole number above 0, got ${budgetArg}`);
  const maxNegativeArg = values['max-negative'] ?? env.CONFORMANCE_MAX_NEGATIVE;
  if (maxNegativeArg !== undefined && !/^\d+$/.test(maxNegativeArg)) throw new InputError(`--max-negative must be a whole number, got ${maxNegativeArg}`);
  const maxRequestsArg = values['max-requests'] ?? env.CONFORMANCE_MAX_REQUESTS;
  if (maxRequestsArg !== undefined && !(/^\d+$/.test(maxRequestsArg) && Number(maxRequestsArg) > 0)) throw new InputError(`--max-requests must be a whole number above 0, got ${maxRequestsArg}`);
  const rateArg = values.rate ?? env.CONFORMANCE_RATE;
  if (rateArg !== undefined && !(Number(rateArg) > 0 && Number.isFinite(Number(rateArg)))) throw new InputError(`--rate must be a number above 0, got ${rateArg}`);
  const keys = { publicKey: values['public-key'] ?? env.CONFORMANCE_PUBLIC_KEY, secretKey: values['secret-key'] ?? env.CONFORMANCE_SECRET_KEY, accountId: values['account-id'] ?? env.CONFORMANCE_ACCOUNT_ID };
  const missing = missingInputs(profile as Profile, keys);
  if (missing.length) throw new InputError(`the ${profile} profile needs ${missing.join(', ')}`);
  const fixturesArg = values.fixtures ?? env.CONFORMANCE_FIXTURES;
  const fixturesFile = fixturesArg ? callerPath(fixturesArg, env) : undefined;
  // Read here so that a missing or broken file stops the run before it starts; the suite reads it again.
  if (fixturesFile) loadFixtures(fixturesFile);
  const output = outputArg ? callerPath(outputArg, env) : undefined;
  return {
    baseUrl,
    controlUrl: values['control-url'] ?? env.CONFORMANCE_CONTROL_URL,
    ...keys,
    profile: profile as Profile,
    fixturesFile,
    only: values.only ?? env.CONFORMANCE_ONLY,
    seed: seedArg === undefined ? undefined : Number(seedArg),
    latencyBudgetMs: budgetArg === undefined ? undefined : Number(budgetArg),
    maxNegative: maxNegativeArg === undefined ? undefined : Number(maxNegativeArg),
    maxRequests: maxRequestsArg === undefined ? undefined : Number(maxRequestsArg),
    ratePerSecond: rateArg === undefined ? undefined : Number(rateArg),
    junitFile: reporter === 'junit' ? output : undefined,
    recordFile: values.record ?? env.CONFORMANCE_RECORD ? callerPath((values.record ?? env.CONFORMANCE_RECORD) as string, env) : undefined,
    reporter: reporter as (typeof REPORTERS)[number],
    output,
  };
}

/** Writes a report, making its folder first (the default one may not exist yet). */
export function writeReport(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export const say = (line: string) => process.stderr.write(`switchyard-conformance: ${line}\n`);

/** The CLI, as a function: returns the exit code (see USAGE). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv[0] === 'diff') return diffMain(argv.slice(1), env);
  try {
    const values = parse(argv);
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const settings = settingsOf(values, env);
    await probe(settings.baseUrl, '--base-url');
    if (settings.controlUrl) await probe(settings.controlUrl, '--control-url');
    const report = await runConformance(settings);
    if (settings.reporter === 'json') {
      const json = `${JSON.stringify(report, null, 2)}\n`;
      if (settings.output) writeReport(settings.output, json);
      else process.stdout.write(json);
    }
    if (settings.reporter !== 'json' || settings.output) process.stdout.write(renderPretty(report));
    const verdict = verdictOf(report);
    if (verdict.message) say(verdict.message);
    return verdict.code;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    say(error.message);
    return 2;
  }
}
