import { contract, listRoutes, sandboxContract } from '@switchyard/contract';
import { CHECKS } from './harness/checks.js';

export type Outcome = 'pass' | 'fail' | 'skip';

export interface TestOutcome {
  operationId: string;
  check: string;
  detail: string | null;
  outcome: Outcome;
  /** Why it was skipped, or the failure (request, response, curl). */
  message: string | null;
  durationMs: number;
}

export interface EndpointRow {
  operationId: string;
  method: string;
  path: string;
  checks: Record<string, Outcome | 'not exercised'>;
}

export interface ConformanceReport {
  baseUrl: string;
  profile: string;
  durationMs: number;
  totals: Record<Outcome, number>;
  notExercised: string[];
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
export function buildReport(tests: TestOutcome[], meta: { baseUrl: string; profile: string; durationMs: number; includeSandbox: boolean }): ConformanceReport {
  const routes = [...listRoutes(contract), ...(meta.includeSandbox ? listRoutes(sandboxContract) : [])];
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
  return { ...meta, totals, notExercised, endpoints, tests };
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
  lines.push(`checks: ${report.totals.pass} passed, ${report.totals.fail} failed, ${report.totals.skip} skipped`);
  return `${lines.join('\n')}\n`;
}
