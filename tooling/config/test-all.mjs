#!/usr/bin/env node
/**
 * Runs the whole workspace's tasks (build, lint, typecheck, test, package checks) through turbo,
 * then always prints one closing line for the whole workspace, read from every package's JUnit
 * report: `tests: N passed, N failed, N skipped`. The line is printed also when a task failed, so a
 * broken run still says what it counted; the command then exits non-zero. It also exits non-zero
 * when a package with tests left no report or when no test ran at all, so "green with zero tests"
 * can never pass unnoticed.
 *
 * `node tooling/config/test-all.mjs --report-only` prints the line from the reports on disk.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { upstreamDigest } from './upstream.js';

const root = process.cwd();
// Every workspace package folder (pnpm-workspace.yaml): packages/*, apps/*, tests/*, tooling/* and bench.
const packageDirs = ['packages', 'apps', 'tests', 'tooling']
  .filter((dir) => existsSync(join(root, dir)))
  .flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(root, dir, name)))
  .concat(join(root, 'bench'))
  .filter((dir) => existsSync(join(dir, 'package.json')));
const reportOf = (dir) => join(dir, 'reports', 'junit.xml');
const hasTests = (dir) => Boolean(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.test);

let turboStatus = 0;
if (!process.argv.includes('--report-only')) {
  // A report left by an earlier run must not be counted for a package whose tests did not run
  // now; turbo puts a cached run's report back itself.
  for (const dir of packageDirs) rmSync(reportOf(dir), { force: true });
  const turbo = spawnSync(join(root, 'node_modules', '.bin', 'turbo'), ['run', 'build', 'lint', 'typecheck', 'test', 'check:package', '--continue'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
    env: { ...process.env, SWITCHYARD_UPSTREAM_DIGEST: upstreamDigest() },
  });
  turboStatus = turbo.status ?? 1;
}

let tests = 0;
let failed = 0;
let skipped = 0;
const reports = [];
const failures = [];
const missing = [];
for (const dir of packageDirs) {
  if (!existsSync(reportOf(dir))) {
    if (hasTests(dir)) missing.push(dir.slice(root.length + 1));
    continue;
  }
  reports.push(dir);
  const xml = readFileSync(reportOf(dir), 'utf8');
  const head = /<testsuites\b([^>]*)>/.exec(xml)?.[1] ?? '';
  const attr = (text, name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(text)?.[1] ?? 0);
  tests += attr(head, 'tests');
  failed += attr(head, 'failures') + attr(head, 'errors');
  // vitest puts the skipped count on each <testsuite>, not on <testsuites>.
  for (const suite of xml.matchAll(/<testsuite\b([^>]*)>/g)) skipped += attr(suite[1], 'skipped');
  failures.push(...failedCases(dir.slice(root.length + 1), xml));
}
const passed = tests - failed - skipped;
console.log(`reports: ${reports.length} JUnit file(s)`);
if (missing.length > 0) console.log(`no test report (its tests did not run): ${missing.join(', ')}`);
if (turboStatus !== 0) console.log(`a task failed (turbo exited ${turboStatus}): see its output above`);
// CI keeps only the end of a run's output: the failed tests are named again here, beside the count.
for (const failure of failures) console.log(`failed: ${failure}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (turboStatus !== 0 || failed > 0 || missing.length > 0 || passed === 0) process.exit(1);

/** One line per failed or errored test case of a JUnit report: package, file, name and the first line of its message. */
function failedCases(packageDir, xml) {
  const text = (value) =>
    value
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&#x([0-9a-f]+);/gi, (_, code) => String.fromCodePoint(Number.parseInt(code, 16)))
      .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
      .replace(/&amp;/g, '&');
  const lines = [];
  for (const testCase of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const problem = /<(?:failure|error)\b([^>]*)>/.exec(testCase[2] ?? '');
    if (!problem) continue;
    const field = (attrs, name) => text(new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1] ?? '');
    const message = field(problem[1], 'message').split('\n')[0].slice(0, 300);
    lines.push(`${packageDir} ${field(testCase[1], 'classname')} > ${field(testCase[1], 'name')}: ${message}`);
  }
  return lines;
}
