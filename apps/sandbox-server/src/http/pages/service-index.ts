import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { RequestHandler } from 'express';
import { listRoutes, sandboxContract } from '@switchyard/contract';
import { escapeHtml, page } from './html.js';

const require = createRequire(import.meta.url);

/** The package's version: `package.json` sits two levels above this module in `src/http` and in `dist/http`. */
export const SANDBOX_VERSION = (require('../../../package.json') as { version: string }).version;

export const OPENAPI_PATH = '/openapi.json';
/** Repository paths: a sandbox runs from an install as often as from a clone, so the docs are named, not linked to a host. */
export const DOC_PATHS = ['docs/api-reference.md', 'docs/sandbox.md'] as const;

/** What `GET /` says about this sandbox. */
export interface ServiceIndex {
  name: 'switchyard-sandbox';
  version: string;
  /** `memory` or `postgresql`: the kind only, since the page needs no keys and may be reachable from other machines. */
  store: string;
  openapi: string;
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
    docs: DOC_PATHS,
    control_api: listRoutes(sandboxContract).map(({ route }) => ({ method: route.method, path: route.path, summary: route.summary ?? '' })),
  };
}

export function indexPage(index: ServiceIndex): string {
  const routes = index.control_api
    .map((r) => `<li><code>${escapeHtml(r.method)} ${escapeHtml(r.path)}</code> ${escapeHtml(r.summary)}</li>`)
    .join('');
  return page(
    `Switchyard sandbox ${index.version}`,
    `<h1>Switchyard sandbox</h1>
<p>Version <span data-version>${escapeHtml(index.version)}</span>, store <span data-store>${escapeHtml(index.store)}</span>.</p>
<ul><li><a href="${escapeHtml(index.openapi)}">OpenAPI document</a> (<code>${escapeHtml(index.openapi)}</code>)</li>
${index.docs.map((d) => `<li>Documentation: <code>${escapeHtml(d)}</code> in the repository</li>`).join('')}</ul>
<h2>Control API</h2>
<p>Authenticated with a merchant's keys (headers <code>public-api-key</code> and <code>private-secret-key</code>), except creating a merchant.</p>
<ul>${routes}</ul>`,
  );
}

/** `GET /`: an HTML page for a browser, the same facts as JSON for `Accept: application/json`. */
export function serviceIndexHandler(store: string): RequestHandler {
  const index = serviceIndex(store);
  const html = indexPage(index);
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
