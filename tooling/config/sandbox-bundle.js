/**
 * The sandbox server and the contract bundled straight from their TypeScript sources with
 * esbuild, with the npm packages they import, into one file: what `pnpm sandbox` runs, what the
 * package's `bin` runs (its build makes it with `sandbox.mjs --build-only`), and what the tests
 * that start the CLI as its own process run. Type errors are the typecheck task's to report; the
 * bundle only strips types.
 *
 * One file starts in about half the CPU time of dist/main.js and its tree of modules (resolving and
 * reading some four hundred files was most of the startup).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const server = join(root, 'apps', 'sandbox-server');
const contract = join(root, 'packages', 'contract');

/** The contract's entry points as the package exports them (`./dist/x/index.js`), read from their sources (`./src/x/index.ts`). */
const contractExports = JSON.parse(readFileSync(join(contract, 'package.json'), 'utf8')).exports;
/** @param {string} specifier */
function contractSource(specifier) {
  const subpath = `.${specifier.slice('@switchyard/contract'.length)}`;
  const target = contractExports[subpath]?.import?.default ?? contractExports[subpath];
  if (typeof target !== 'string') return undefined;
  return join(contract, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
}

/**
 * The workspace's own code is bundled from source, and the npm packages from the server's
 * node_modules. `pg-native` stays out: `pg` loads it only when asked to, and it is not installed.
 * @type {import('esbuild').Plugin}
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

/**
 * Bundles the server's entry point (src/main.ts) into `outfile`, which must sit below the server's
 * folder with no other package.json in between: the server reads the nearest one above its module
 * (service-index.ts). Rejects when esbuild reports an error, having printed it with its file and line.
 * Each file is written whole under another name, then renamed into place, so a process starting
 * the bundle while another rebuilds it (`pnpm sandbox` beside a running test) never reads half of it.
 * @param {string} outfile
 * @returns {Promise<{ modules: number; ms: number }>}
 */
export async function bundleSandbox(outfile) {
  const started = performance.now();
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
    write: false,
    logLevel: 'warning',
    plugins: [workspaceSources],
    external: ['pg-native'],
    // The CommonJS packages (express, pg, ...) call require() for Node's own modules, which an ES
    // module has no binding for: give the bundle one.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);" },
  });
  mkdirSync(dirname(outfile), { recursive: true });
  for (const file of result.outputFiles) {
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  return { modules: Object.keys(result.metafile.inputs).length, ms: performance.now() - started };
}
