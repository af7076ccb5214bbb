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
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const server = join(root, 'apps', 'sandbox-server');
const contract = join(root, 'packages', 'contract');
// Two folders below the package, like dist/main.js's modules: the server finds its package.json
// two levels above its own module (service-index.ts).
const outfile = join(server, 'dist', 'bundle', 'main.js');

/** The contract's entry points as the package exports them (`./dist/x/index.js`), read from their sources (`./src/x/index.ts`). */
const contractExports = JSON.parse(readFileSync(join(contract, 'package.json'), 'utf8')).exports;
function contractSource(specifier) {
  const subpath = `.${specifier.slice('@switchyard/contract'.length)}`;
  const target = contractExports[subpath]?.import?.default ?? contractExports[subpath];
  if (typeof target !== 'string') return undefined;
  return join(contract, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
}

/**
 * The workspace's own code is bundled from source, and the npm packages from the server's
 * node_modules. `pg-native` stays out: `pg` loads it only when asked to, and it is not installed.
 */
const workspaceSources = {
  name: 'workspace-sources',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^@switchyard\/contract(\/|$)/ }, (args) => {
      const path = contractSource(args.path);
      return path ? { path } : { errors: [{ text: `${args.path} is not an entry point of the contract package` }] };
    });
  },
};

const say = (line) => process.stderr.write(`${line}\n`);
const started = performance.now();
say('sandbox: bundling apps/sandbox-server and packages/contract from source, with the npm packages they use (esbuild)…');
const result = await build({
  entryPoints: [join(server, 'src', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // No `keepNames`: it wraps every function the code creates in a call that sets its name, and
  // closures made per request paid it on every request. Unminified, a function keeps its name
  // anyway unless two of them collide in the bundle (then one reads `name2` in a stack trace),
  // and nothing in the server reads a function's name.
  metafile: true,
  logLevel: 'warning',
  plugins: [workspaceSources],
  external: ['pg-native'],
  // The CommonJS packages (express, pg, ...) call require() for Node's own modules, which an ES
  // module has no binding for: give the bundle one.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);" },
}).catch(() => {
  // esbuild has printed each error with its file and line.
  say('sandbox: the bundle failed; see the errors above');
  process.exit(1);
});
const modules = Object.keys(result.metafile.inputs).length;
const buildOnly = process.argv.includes('--build-only');
say(`sandbox: bundled ${modules} modules into ${relative(root, outfile)} in ${((performance.now() - started) / 1000).toFixed(1)} s${buildOnly ? '' : '; starting…'}`);

if (!buildOnly) {
  // The bundle reads its arguments where dist/main.js would: process.argv from index 2 on.
  process.argv[1] = outfile;
  await import(pathToFileURL(outfile).href);
}
