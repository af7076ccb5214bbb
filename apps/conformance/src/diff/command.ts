import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { callerPath, parse, REPORTS_DIR, say, settingsOf, writeReport } from '../cli.js';
import { InputError } from '../config.js';
import { readRecording, type Recording } from '../harness/recording.js';
import { probe } from '../probe.js';
import { runConformance } from '../run.js';
import { compareRecordings } from './compare.js';
import { renderDiffJson, renderDiffJunit, renderDiffMarkdown, renderDiffPretty } from './render.js';

const USAGE = `switchyard-conformance diff --base-url A (--compare-url B | --compare-recording FILE) [options]

Sends the suite's requests to two services (or takes one side from a recording made with
--record), normalizes what must differ (ids, timestamps, generated names, request ids,
signatures) and reports, per operation, status and error-code differences, fields on one side
only, and type, enum and format differences with their JSON path, each with a curl for both sides.

  --base-url <url>               the first service (e.g. the sandbox)
  --compare-url <url>            the second (e.g. your staging)
  --compare-recording <file>     the second, as recorded by a run with --record
  --base-recording <file>        the first, as recorded (instead of --base-url)
  --profile, --public-key, --secret-key, --account-id, --control-url, --fixtures
                                 the base side's, as in a normal run
  --compare-profile, --compare-public-key, --compare-secret-key, --compare-account-id,
  --compare-control-url, --compare-fixtures
                                 the compare side's
  --only, --seed, --max-negative, --max-requests, --rate
                                 both runs' (the same seed sends the same requests)
  --reporter <r>                 pretty (default), json, junit or markdown
  --output <path>                where json, junit or markdown goes (default:
                                 conformance-reports/diff.json, .xml or .md)

Exit: 0 no difference, 1 a difference, 2 the comparison proves nothing (bad options, a side that
does not answer or whose run stopped, no request compared).
`;

const SIDE = ['profile', 'public-key', 'secret-key', 'account-id', 'control-url', 'fixtures'] as const;
const SHARED = ['only', 'seed', 'max-negative', 'max-requests', 'rate'] as const;
const REPORTERS = { pretty: undefined, json: 'diff.json', junit: 'diff.xml', markdown: 'diff.md' } as const;
type Reporter = keyof typeof REPORTERS;

function parseDiff(argv: string[]) {
  const string = { type: 'string' } as const;
  try {
    return parseArgs({
      args: argv,
      options: {
        'base-url': string,
        'compare-url': string,
        'base-recording': string,
        'compare-recording': string,
        ...Object.fromEntries([...SIDE, ...SIDE.map((o) => `compare-${o}`), ...SHARED].map((o) => [o, string])),
        reporter: string,
        output: string,
        help: { type: 'boolean' },
      },
    }).values as Record<string, string | undefined> & { help?: boolean };
  } catch (error) {
    throw new InputError((error as Error).message);
  }
}

/** One side: read from its recording, or run against its URL with a recording of its own. */
async function sideOf(values: Record<string, string | undefined>, side: 'base' | 'compare', env: NodeJS.ProcessEnv): Promise<Recording> {
  const recording = values[`${side}-recording`];
  const url = values[`${side}-url`];
  if (recording && url) throw new InputError(`--${side}-url and --${side}-recording exclude each other`);
  if (recording) {
    try {
      return readRecording(callerPath(recording, env));
    } catch (error) {
      throw new InputError(`--${side}-recording ${callerPath(recording, env)}: ${(error as Error).message}`);
    }
  }
  const prefix = side === 'base' ? '' : 'compare-';
  const args = [
    '--base-url',
    url as string,
    ...SIDE.flatMap((o) => (values[`${prefix}${o}`] === undefined ? [] : [`--${o}`, values[`${prefix}${o}`] as string])),
    ...SHARED.flatMap((o) => (values[o] === undefined ? [] : [`--${o}`, values[o] as string])),
  ];
  // Only what was given on the command line: the CONFORMANCE_* variables of a normal run would mix the two sides.
  const settings = settingsOf(parse(args), { INIT_CWD: env.INIT_CWD });
  await probe(settings.baseUrl, `--${side}-url`);
  // The run's recording is read back and its directory removed: nothing is left in the temporary directory.
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-diff-'));
  try {
    const recordFile = join(dir, `${side}.json`);
    const report = await runConformance({ ...settings, junitFile: undefined, recordFile });
    const [error] = report.errors;
    if (error !== undefined) throw new InputError(`the ${side} run stopped: ${error.split('\n')[0]}`);
    return readRecording(recordFile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `switchyard-conformance diff`: returns the exit code (see USAGE). */
export async function diffMain(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  try {
    const values = parseDiff(argv);
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const reporter = (values.reporter ?? 'pretty') as Reporter;
    if (!(reporter in REPORTERS)) throw new InputError(`--reporter must be pretty, json, junit or markdown, got ${reporter}`);
    // Both sides named before either runs: a run takes minutes.
    for (const side of ['base', 'compare'] as const) {
      if (!values[`${side}-url`] && !values[`${side}-recording`]) throw new InputError(`--${side}-url or --${side}-recording is required (see diff --help)`);
    }
    // A recording is read before any run starts, so that a bad file stops the command at once.
    const recorded = (side: 'base' | 'compare') => (values[`${side}-recording`] ? sideOf(values, side, env) : undefined);
    const [baseRecorded, compareRecorded] = [await recorded('base'), await recorded('compare')];
    const base = baseRecorded ?? (await sideOf(values, 'base', env));
    const compare = compareRecorded ?? (await sideOf(values, 'compare', env));
    const report = compareRecordings(base, compare);
    process.stdout.write(renderDiffPretty(report));
    const file = REPORTERS[reporter];
    if (file) {
      const text = reporter === 'json' ? renderDiffJson(report) : reporter === 'junit' ? renderDiffJunit(report) : renderDiffMarkdown(report);
      writeReport(callerPath(values.output ?? `${REPORTS_DIR}/${file}`, env), text);
    }
    if (report.compared === 0) throw new InputError('no request of one side had its counterpart in the other: nothing was compared');
    return report.differences.length === 0 ? 0 : 1;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    say(error.message);
    return 2;
  }
}
