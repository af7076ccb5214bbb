import type { RecordedExchange } from '../harness/recording.js';
import type { Difference, DiffReport } from './compare.js';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command that sends the recorded request to `baseUrl` (the keys masked: put yours back). */
export function curlFor(baseUrl: string, e: RecordedExchange): string {
  const headers = Object.entries(e.requestHeaders)
    .filter(([k]) => k !== 'content-length')
    .map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`);
  const body = e.requestBody === undefined ? [] : [`--data ${shellQuote(typeof e.requestBody === 'string' ? e.requestBody : JSON.stringify(e.requestBody))}`];
  return ['curl -i', `-X ${e.method}`, shellQuote(`${baseUrl.replace(/\/+$/, '')}${e.path}`), ...headers, ...body].join(' ');
}

const where = (d: Difference) => d.path || '(status line)';
const KIND_LABEL: Record<Difference['kind'], string> = {
  status: 'status',
  error_code: 'error code',
  only_in_base: 'field only in base',
  only_in_compare: 'field only in compare',
  type: 'type',
  enum: 'enum value',
  format: 'format',
};

function summary(r: DiffReport): string {
  return `${r.differences.length} difference(s) in ${r.compared} compared answer(s) of ${r.operations.length} operation(s); ${r.racing} racing exchange(s) left out; unmatched requests: ${r.unmatched.base} base, ${r.unmatched.compare} compare`;
}

/** The terminal table: one row per difference. */
export function renderDiffPretty(r: DiffReport): string {
  const rows = r.differences.map((d) => [d.operation, KIND_LABEL[d.kind], where(d), d.base, d.compare, String(d.occurrences)]);
  const header = ['operation', 'difference', 'path', 'base', 'compare', 'seen'];
  const widths = header.map((h, i) => Math.min(48, Math.max(h.length, ...rows.map((row) => (row[i] as string).length))));
  const line = (cells: string[]) => cells.map((c, i) => c.slice(0, widths[i]).padEnd(widths[i] as number)).join('  ').trimEnd();
  return [
    `Differences between ${r.base.url} (base, ${r.base.profile}) and ${r.compare.url} (compare, ${r.compare.profile})`,
    '',
    ...(rows.length ? [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)] : ['no difference']),
    '',
    summary(r),
    '',
  ].join('\n');
}

/** JSON: the report as it is, examples included. */
export const renderDiffJson = (r: DiffReport) => `${JSON.stringify(r, null, 2)}\n`;

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JUnit: one test case per operation compared, failed with its differences. */
export function renderDiffJunit(r: DiffReport): string {
  const cases = r.operations.map((o) => {
    const mine = r.differences.filter((d) => d.operation === o.operation);
    const failure = mine.length
      ? `<failure message="${xml(`${mine.length} difference(s)`)}">${xml(mine.map((d) => `${KIND_LABEL[d.kind]} at ${where(d)}: base ${d.base}, compare ${d.compare}\n  base:    ${curlFor(r.base.url, d.example.base)}\n  compare: ${curlFor(r.compare.url, d.example.compare)}`).join('\n'))}</failure>`
      : '';
    return `    <testcase classname="switchyard diff" name="${xml(o.operation)}">${failure}</testcase>`;
  });
  const failures = r.operations.filter((o) => o.differences > 0).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="switchyard diff" tests="${r.operations.length}" failures="${failures}">`,
    `  <testsuite name="${xml(`${r.base.url} vs ${r.compare.url}`)}" tests="${r.operations.length}" failures="${failures}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const md = (s: string) => s.replace(/\|/g, '\\|');

/** The Markdown fidelity report: a summary, a table of the differences, and how to reproduce each. */
export function renderDiffMarkdown(r: DiffReport): string {
  const lines = [
    '# Fidelity report',
    '',
    `Base: \`${r.base.url}\` (profile ${r.base.profile}). Compare: \`${r.compare.url}\` (profile ${r.compare.profile}).`,
    '',
    `${summary(r)}.`,
    '',
  ];
  if (r.differences.length === 0) return [...lines, 'No difference.', ''].join('\n');
  lines.push('| Operation | Difference | Path | Base | Compare | Seen |', '|---|---|---|---|---|---|');
  for (const d of r.differences) lines.push(`| ${md(d.operation)} | ${KIND_LABEL[d.kind]} | \`${md(where(d))}\` | \`${md(d.base)}\` | \`${md(d.compare)}\` | ${d.occurrences} |`);
  lines.push('', '## Reproduce');
  for (const d of r.differences) {
    lines.push('', `### ${d.operation}: ${KIND_LABEL[d.kind]} at \`${where(d)}\``, '', '```sh', `# base: ${d.base}`, curlFor(r.base.url, d.example.base), `# compare: ${d.compare}`, curlFor(r.compare.url, d.example.compare), '```');
  }
  return `${lines.join('\n')}\n`;
}
