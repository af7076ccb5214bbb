#!/usr/bin/env node
/**
 * The public API report of a published package, one file per entry point of its `exports`
 * (`api/<entry>.api.md`), written by @microsoft/api-extractor from the built declarations.
 *
 *   switchyard-api-report           rewrites the reports (commit them with the change)
 *   switchyard-api-report --check   fails when the built API differs from the committed reports
 *
 * The check runs in the package's `check:package` task, so CI fails when an export is added,
 * removed or changed and the report was not updated: the diff of a report is what a reviewer
 * reads to choose the version bump (docs/releasing.md).
 */
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const dir = process.cwd();
const check = process.argv.includes('--check');
const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const reportFolder = join(dir, 'api');

/** Each entry point with declarations: `.` is named after the package, `./x/y` is `x-y`. */
const entries = Object.entries(manifest.exports ?? {}).flatMap(([subpath, target]) => {
  const types = target?.import?.types ?? target?.types;
  if (typeof types !== 'string') return [];
  const unscoped = manifest.name.replace(/^@[^/]+\//, '');
  return [{ subpath, types: join(dir, types), report: subpath === '.' ? unscoped : subpath.slice(2).replace(/\//g, '-') }];
});
if (entries.length === 0) throw new Error(`${manifest.name} exports no declarations`);
mkdirSync(reportFolder, { recursive: true });

const silent = { default: { logLevel: 'none' } };
const failures = [];
for (const entry of entries) {
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: dir,
      mainEntryPointFilePath: entry.types,
      bundledPackages: [],
      compiler: { tsconfigFilePath: join(dir, 'tsconfig.build.json') },
      apiReport: { enabled: true, reportFileName: entry.report, reportFolder, reportTempFolder: join(dir, 'reports', 'api') },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      // Release tags and TSDoc style are not this project's convention: the report is about the API's shape.
      messages: { extractorMessageReporting: silent, tsdocMessageReporting: silent, compilerMessageReporting: { default: { logLevel: 'error' } } },
    },
    configObjectFullPath: join(dir, 'api-extractor.json'),
    packageJsonFullPath: join(dir, 'package.json'),
  });
  const result = Extractor.invoke(config, { localBuild: !check, messageCallback: (m) => (m.logLevel === 'none' ? (m.handled = true) : undefined) });
  if (!result.succeeded || (check && result.apiReportChanged)) failures.push(entry);
}
// A report of an entry point the package no longer exports is stale.
const expected = new Set(entries.map((e) => `${e.report}.api.md`));
const stale = readdirSync(reportFolder).filter((f) => f.endsWith('.api.md') && !expected.has(f));
if (!check) for (const file of stale) rmSync(join(reportFolder, file));
if (failures.length > 0 || (check && stale.length > 0)) {
  for (const f of failures) console.error(`${manifest.name} ${f.subpath}: the public API differs from api/${f.report}.api.md`);
  for (const file of stale) console.error(`${manifest.name}: api/${file} reports an entry point the package no longer exports`);
  console.error('Review the change (docs/releasing.md says which version bump it needs), then run `pnpm api-report` in the package and commit the report.');
  process.exit(1);
}
console.log(`${manifest.name}: ${entries.length} API report(s) ${check ? 'match the build' : 'written'}`);
