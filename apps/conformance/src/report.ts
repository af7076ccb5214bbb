import { contract, listRoutes, sandboxContract } from '@switchyard/contract';
import { CHECKS } from './harness/checks.js';

export type Outcome = 'pass' | 'fail' | 'skip';

export interface TestOutcome {
  operationId: string;
  check: string;
  detail: string | null;
  outcome: Outcome;
  /** Why it was skipped, the failure (request, response, curl), or what a passing check measured (latency). */
  message: string | null;
  durationMs: number;
}

export interface EndpointRow {
  operationId: string;
  method: string;
  path: string;
  checks: Record<string, Outcome | 'not exercised'>;
}

/** Checks a run left out on purpose: not in the totals, named in the summary. */
export interface Exclusion {
  checks: number;
  /** What was left out, e.g. `on the 12 routes of the /sandbox control API`. */
  what: string;
  why: string;
}

export interface ConformanceReport {
  baseUrl: string;
  profile: string;
  /** The --only selection, if any. */
  only: string | null;
  durationMs: number;
  totals: Record<Outcome, number>;
  notExercised: string[];
  excluded: Exclusion[];
  /** Errors outside any check (the suite's set-up, a hook): the checks after them did not run. */
  errors: string[];
  endpoints: EndpointRow[];
  tests: TestOutcome[];
}

/** `refundTransaction › state_transition › partial then full` → its parts. */
export function parseTestName(name: string): { operationId: string; check: string; detail: string | null } | undefined {
  const parts = name.split(' › ');
  if (parts.length < 2) return undefined;
  return { operationId: parts[0] as string, check: parts[1] as string, detail: parts.slice(2).join(' › ') || null };
}

const worst = (a: Outcome | 'not exercised', b: Outcome): Outcome => (a === 'fail' || b === 'fail' ? 'fail' : a === 'pass' || b === 'pass' ? 'pass' : 'skip');

/** The endpoint × check matrix; an endpoint without any passing or failing check is "not exercised". */
export function buildReport(
  tests: TestOutcome[],
  meta: { baseUrl: string; profile: string; only: string | null; durationMs: number; includeSandbox: boolean; excluded: Exclusion[]; errors: string[] },
): ConformanceReport {
  const { includeSandbox, ...rest } = meta;
  const routes = [...listRoutes(contract), ...(includeSandbox ? listRoutes(sandboxContract) : [])];
  const endpoints: EndpointRow[] = routes.map((r) => ({ operationId: r.meta.operationId, method: r.route.method, path: r.route.path, checks: {} }));
  const byOp = new Map(endpoints.map((e) => [e.operationId, e]));
  for (const t of tests) {
    const row = byOp.get(t.operationId);
    if (!row) continue;
    row.checks[t.check] = worst(row.checks[t.check] ?? 'not exercised', t.outcome);
  }
  const totals = { pass: 0, fail: 0, skip: 0 } as Record<Outcome, number>;
  for (const t of tests) totals[t.outcome] += 1;
  const notExercised = endpoints.filter((e) => !Object.values(e.checks).some((o) => o === 'pass' || o === 'fail')).map((e) => `${e.method} ${e.path}`);
  return { ...rest, totals, notExercised, endpoints, tests };
}

/** The first line of an error or a reason: messages on stderr stay one line. */
export const firstLine = (text: string) => text.split('\n')[0] ?? '';

/**
 * The exit code and, when it is not a plain pass or fail, the one line that says why: 0 every
 * check that ran passed, 1 a check failed, 2 the run proves nothing (an error outside the checks,
 * or no check ran at all).
 */
export function verdictOf(report: ConformanceReport): { code: 0 | 1 | 2; message?: string } {
  const [error] = report.errors;
  if (error !== undefined) return { code: 2, message: `the suite stopped outside any check: ${firstLine(error)}` };
  if (report.totals.pass + report.totals.fail === 0) {
    const [skip] = report.tests;
    if (!skip) return { code: 2, message: `no check ran: ${report.only === null ? 'the suite has no checks' : `--only ${report.only} matches no domain, check or operationId`}` };
    return { code: 2, message: `no check ran: every check (${report.tests.length}) was skipped, e.g. ${skip.operationId} › ${skip.check}: ${firstLine(skip.message ?? '')}` };
  }
  return { code: report.totals.fail === 0 ? 0 : 1 };
}

const SYMBOL: Record<Outcome | 'not exercised', string> = { pass: '✓', fail: '✗', skip: '-', 'not exercised': '·' };

export function renderPretty(report: ConformanceReport): string {
  const used = CHECKS.filter((c) => report.endpoints.some((e) => e.checks[c] !== undefined));
  const header = ['endpoint'.padEnd(44), ...used.map((c, i) => String(i + 1).padStart(2))].join(' ');
  const lines = [
    `Conformance of ${report.baseUrl} (profile ${report.profile}) in ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    header,
    ...report.endpoints.map((e) => [`${e.method} ${e.operationId}`.padEnd(44).slice(0, 44), ...used.map((c) => SYMBOL[e.checks[c] ?? 'not exercised'].padStart(2))].join(' ')),
    '',
    ...used.map((c, i) => `${String(i + 1).padStart(2)} ${c}`),
    `✓ pass  ✗ fail  - skipped  · not exercised`,
    '',
  ];
  for (const t of report.tests.filter((x) => x.outcome === 'fail')) lines.push(`FAIL ${t.operationId} › ${t.check}${t.detail ? ` › ${t.detail}` : ''}`, t.message ?? '', '');
  const skipped = report.tests.filter((x) => x.outcome === 'skip');
  if (skipped.length) lines.push(`${skipped.length} skipped:`, ...skipped.slice(0, 50).map((t) => `  ${t.operationId} › ${t.check}: ${t.message ?? ''}`), '');
  if (report.notExercised.length) lines.push(`not exercised: ${report.notExercised.join(', ')}`);
  for (const e of report.excluded) lines.push(`not counted: ${e.checks} checks ${e.what}: ${e.why}`);
  for (const e of report.errors) lines.push(`error outside any check: ${e}`);
  lines.push(`checks: ${report.totals.pass} passed, ${report.totals.fail} failed, ${report.totals.skip} skipped`);
  return `${lines.join('\n')}\n`;
}
