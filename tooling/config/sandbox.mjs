#!/usr/bin/env node
/**
 * `pnpm sandbox`: bundles the sandbox server and the contract straight from their TypeScript
 * sources with esbuild (a second or two, where building both packages with tsc took minutes on
 * a fresh clone), then runs the bundle in this same process. Only what the sandbox runs is built:
 * not the client, the conformance suite or any declaration file. Type errors are the typecheck
 * task's to report (`pnpm test` runs it); the bundle only strips types.
 *
 * The npm packages the server imports are bundled too: one file starts in about half the CPU
 * time of dist/main.js and its tree of modules (resolving and reading some four hundred files
 * was most of the startup). The same bundle is the package's command (`bin`), which the
 * package's build makes with `--build-only`.
 *
 * The root script starts this file with `exec`, so a Ctrl-C reaches the sandbox itself, which
 * stops cleanly and exits 0, with no shell in between to turn the signal into a failure.
 *
 * `node tooling/config/sandbox.mjs --build-only` bundles and stops there.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleSandbox } from './sandbox-bundle.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Two folders below the package, like dist/main.js's modules: the server finds its package.json
// as the nearest one above its own module (service-index.ts).
const outfile = join(root, 'apps', 'sandbox-server', 'dist', 'bundle', 'main.js');

const say = (line) => process.stderr.write(`${line}\n`);
say('sandbox: bundling apps/sandbox-server and packages/contract from source, with the npm packages they use (esbuild)…');
const bundled = await bundleSandbox(outfile).catch(() => {
  // esbuild has printed each error with its file and line.
  say('sandbox: the bundle failed; see the errors above');
  process.exit(1);
});
const buildOnly = process.argv.includes('--build-only');
say(`sandbox: bundled ${bundled.modules} modules into ${relative(root, outfile)} in ${(bundled.ms / 1000).toFixed(1)} s${buildOnly ? '' : '; starting…'}`);

if (!buildOnly) {
  // The bundle reads its arguments where dist/main.js would: process.argv from index 2 on.
  process.argv[1] = outfile;
  await import(pathToFileURL(outfile).href);
}
