#!/usr/bin/env node
/**
 * Prints one closing line for the whole workspace, read from every package's JUnit report:
 * `tests: N passed, N failed, N skipped`. Exits non-zero when a report has failures or when no
 * test ran at all, so "green with zero tests" can never pass unnoticed.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
// Every workspace package folder (pnpm-workspace.yaml): packages/*, apps/*, tests/*, tooling/* and bench.
const packageDirs = ['packages', 'apps', 'tests', 'tooling']
  .filter((dir) => existsSync(join(root, dir)))
  .flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(root, dir, name)))
  .concat(join(root, 'bench'));
const reports = packageDirs.map((dir) => join(dir, 'reports', 'junit.xml')).filter((file) => existsSync(file));

let tests = 0;
let failed = 0;
let skipped = 0;
for (const file of reports) {
  const xml = readFileSync(file, 'utf8');
  const head = /<testsuites\b([^>]*)>/.exec(xml)?.[1] ?? '';
  const attr = (text, name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(text)?.[1] ?? 0);
  tests += attr(head, 'tests');
  failed += attr(head, 'failures') + attr(head, 'errors');
  // vitest puts the skipped count on each <testsuite>, not on <testsuites>.
  for (const suite of xml.matchAll(/<testsuite\b([^>]*)>/g)) skipped += attr(suite[1], 'skipped');
}
const passed = tests - failed - skipped;
console.log(`reports: ${reports.length} JUnit file(s)`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0) process.exit(1);
