import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestHandler } from 'express';
import { listRoutes, sandboxContract } from '@switchyard/contract';
import { ApiProblem } from '../../errors.js';
import { escapeHtml, styledPage } from './html.js';
import { INSPECTOR_PATH } from './inspector/page.js';
import { sendProblem } from '../server/problem-response.js';

const require = createRequire(import.meta.url);

/**
 * The package's `package.json`: the nearest one above this module, which is the sandbox's own in
 * `src/http/pages`, in `dist/http/pages` and in the bundle's `dist/bundle` alike.
 */
const PACKAGE_JSON = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return join(dir, 'package.json');
})();

/** The package's version. */
export const SANDBOX_VERSION = (require(PACKAGE_JSON) as { version: string }).version;

export const OPENAPI_PATH = '/openapi.json';
/** Repository paths of the documents a newcomer starts from, in reading order. */
export const DOC_PATHS = ['docs/sandbox.md', 'docs/sandbox-payments.md', 'docs/sandbox-testing.md', 'docs/sandbox-errors.md', 'docs/api-reference.md', 'docs/checkout.md', 'docs/webhooks.md', 'docs/faults.md', 'docs/inspector.md'] as const;
/** Where the sandbox serves a document: `/docs/sandbox.md` for `docs/sandbox.md`. */
export const docHref = (doc: string) => `/${doc}`;

/**
 * The repository's `docs` folder when the sandbox runs from a clone (two levels above the
 * package), so the index can link the documents; an install from the registry has none, and the
 * index then names them as paths in the repository.
 */
export function docsFolder(): string | undefined {
  const folder = join(dirname(PACKAGE_JSON), '..', '..', 'docs');
  return existsSync(join(folder, 'sandbox.md')) ? folder : undefined;
}

/** What `GET /` says about this sandbox. */
export interface ServiceIndex {
  name: 'switchyard-sandbox';
  version: string;
  /** `memory` or `postgresql`: the kind only, since the page needs no keys and may be reachable from other machines. */
  store: string;
  openapi: string;
  /** The inspector's page: a merchant's data, read with its keys in the browser. */
  inspector: string;
  docs: readonly string[];
  /** The control API (`sandboxContract`), each route with its method, path and summary. */
  control_api: { method: string; path: string; summary: string }[];
}

export function serviceIndex(store: string): ServiceIndex {
  return {
    name: 'switchyard-sandbox',
    version: SANDBOX_VERSION,
    store,
    openapi: OPENAPI_PATH,
    inspector: INSPECTOR_PATH,
    docs: DOC_PATHS,
    control_api: listRoutes(sandboxContract).map(({ route }) => ({ method: route.method, path: route.path, summary: route.summary ?? '' })),
  };
}

/** The index page; `docsServed` when the sandbox serves the documents (docsFolder), else they are named as repository paths. */
export function indexPage(index: ServiceIndex, docsServed: boolean): string {
  const routes = index.control_api
    .map((r) => `<li><code>${escapeHtml(r.method)} ${escapeHtml(r.path)}</code> ${escapeHtml(r.summary)}</li>`)
    .join('');
  const doc = (d: string) => (docsServed ? `<li><a href="${escapeHtml(docHref(d))}" data-doc>${escapeHtml(d)}</a></li>` : `<li><code>${escapeHtml(d)}</code> in the repository</li>`);
  return styledPage(
    `Switchyard sandbox ${index.version}`,
    `<h1>Switchyard sandbox</h1>
<p>Version <span data-version>${escapeHtml(index.version)}</span>, store <span data-store>${escapeHtml(index.store)}</span>.</p>
<div class="card"><ul class="links">
<li><a href="${escapeHtml(index.inspector)}" data-inspector>Inspector</a>: payments, webhooks, events and the request journal of a merchant, with its keys</li>
<li><a href="${escapeHtml(index.openapi)}" data-openapi>OpenAPI document</a> (<code>${escapeHtml(index.openapi)}</code>)</li>
</ul></div>
<h2>Documentation</h2>
<ul class="links">${index.docs.map(doc).join('')}</ul>
<h2>Control API</h2>
<p>Authenticated with a merchant's keys (headers <code>public-api-key</code> and <code>private-secret-key</code>), except creating a merchant.</p>
<ul class="links">${routes}</ul>`,
  );
}

/**
 * `GET /docs/{name}.md`: one of the index's documents, as plain text (a browser shows Markdown
 * as it is), when the sandbox runs from a clone; 404 in the error shape otherwise. Only the
 * documents the index names are served: no path from the request reaches the file system.
 */
export function docsHandler(folder: string | undefined): RequestHandler {
  return async (req, res, next) => {
    const doc = DOC_PATHS.find((d) => docHref(d) === req.path);
    if (!doc || !folder) return void sendProblem(res, new ApiProblem(404, 'NOT_FOUND', [`no document at ${req.path}`]));
    try {
      res.type('text/plain; charset=utf-8').send(await readFile(join(folder, doc.slice('docs/'.length))));
    } catch (error) {
      next(error);
    }
  };
}

/** `GET /`: an HTML page for a browser, the same facts as JSON for `Accept: application/json`. */
export function serviceIndexHandler(store: string, docsServed: boolean): RequestHandler {
  const index = serviceIndex(store);
  const html = indexPage(index, docsServed);
  return (req, res) => {
    res.vary('Accept');
    if (req.accepts(['html', 'json']) === 'json') res.json(index);
    else res.type('html').send(html);
  };
}

/** `GET /openapi.json`: the contract's OpenAPI document, byte for byte, read on first use. */
export function openapiHandler(): RequestHandler {
  let document: Promise<Buffer> | undefined;
  return async (_req, res, next) => {
    try {
      document ??= readFile(require.resolve('@switchyard/contract/openapi.json'));
      res.type('json').send(await document);
    } catch (error) {
      document = undefined;
      next(error);
    }
  };
}
