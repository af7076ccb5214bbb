import { resolve } from 'node:path';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import shared from '@switchyard/tooling/eslint';

const here = import.meta.dirname;
const inSrc = (glob) => resolve(here, 'src', glob);
/** A file of src/ as a glob (`@(name)` matches the name alone): the rule takes exceptions only as globs once `from` is one. */
const asGlob = (path) => (path.includes('*') ? inSrc(path) : inSrc(path).replace(/([^/]+)$/, '@($1)'));

/**
 * The layer table of docs/architecture.md ("Where each kind of code lives"), as the linter reads
 * it: each layer's files, and the layers it may import besides its own. An import of any other
 * file of src/ (test-support/ included) is an error. The composition root may import every layer.
 */
const LAYERS = {
  runtime: { files: ['runtime/**'], may: [] },
  settings: { files: ['config.ts', 'config-error.ts', 'database-url.ts', 'tenant-limits.ts'], may: [] },
  domain: { files: ['domain/**'], may: [] },
  faults: { files: ['faults/**'], may: ['domain'] },
  storeInterface: { files: ['store/types.ts', 'store/with-transactions.ts', 'store/migrations/**'], may: ['domain', 'runtime'] },
  store: { files: ['store/**'], may: ['storeInterface', 'domain', 'runtime', 'settings'] },
  app: { files: ['app/**'], may: ['domain', 'faults', 'storeInterface', 'runtime', 'settings'] },
  webhooks: { files: ['webhooks/**'], may: ['domain', 'storeInterface', 'runtime', 'settings'] },
  problems: { files: ['errors.ts'], may: ['domain'] },
  http: { files: ['http/**'], may: ['domain', 'faults', 'app', 'storeInterface', 'runtime', 'settings', 'webhooks', 'problems'] },
  root: { files: ['sandbox.ts', 'main.ts', 'index.ts', 'startup-errors.ts', 'logger.ts', 'log-format.ts'], may: ['runtime', 'settings', 'domain', 'faults', 'storeInterface', 'store', 'app', 'webhooks', 'problems', 'http'] },
};

const zones = Object.entries(LAYERS).map(([name, layer]) => ({
  target: layer.files.map(inSrc),
  from: [inSrc('**')],
  except: [name, ...layer.may].flatMap((allowed) => LAYERS[allowed].files.map(asGlob)),
  message: `${name} may import only ${[name, ...layer.may].join(', ')} (docs/architecture.md, "Where each kind of code lives").`,
}));

/** Names of the contract that give an error its HTTP status: only the HTTP layer (and src/errors.ts) applies them. */
const STATUS_NAMES = { name: '@switchyard/contract', importNames: ['STATUS_OF', 'commonErrorResponses'], message: 'code below HTTP throws DomainError(code) and never names a status.' };

export default [
  ...shared,
  {
    files: ['src/**/*.ts', 'bin/**/*.js'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: resolve(here, 'tsconfig.json') })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/test-support/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones }] },
  },
  {
    files: ['src/domain/**/*.ts', 'src/app/**/*.ts', 'src/webhooks/**/*.ts'],
    // post.ts is the webhook POST itself: an HTTP client, the one place below http/ that speaks HTTP.
    ignores: ['src/**/*.test.ts', 'src/webhooks/post.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [STATUS_NAMES],
          patterns: [{ group: ['express', 'node:http', '@ts-rest/express', 'pg'], message: 'domain, app and webhook code knows no HTTP server and no database driver.' }],
        },
      ],
    },
  },
];
