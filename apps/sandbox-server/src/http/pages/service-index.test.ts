import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { contract, listRoutes, sandboxContract } from '@switchyard/contract';
import { raw } from '../../test-support/harness.js';
import { sandboxForSuite } from '../../test-support/stores.js';
import { DOC_PATHS, indexPage, OPENAPI_PATH, serviceIndex } from './service-index.js';

const require = createRequire(import.meta.url);
const pkg = require('../../../package.json') as { version: string };

const sb = sandboxForSuite();

describe('GET /', () => {
  it('answers JSON to Accept: application/json, without keys: version, store, the OpenAPI path, the docs, the control API from the contract', async () => {
    const res = await raw(sb.url, '/', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toMatch(/accept/i);
    expect(res.body).toEqual({
      name: 'switchyard-sandbox',
      version: pkg.version,
      store: 'memory',
      openapi: '/openapi.json',
      docs: ['docs/api-reference.md', 'docs/sandbox.md'],
      control_api: listRoutes(sandboxContract).map(({ route }) => ({ method: route.method, path: route.path, summary: route.summary })),
    });
  });

  it('answers a browser an HTML page linking the OpenAPI document and naming the docs and the control routes', async () => {
    const res = await fetch(`${sb.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain(`<span data-version>${pkg.version}</span>`);
    expect(html).toContain('<span data-store>memory</span>');
    expect(html).toContain('<a href="/openapi.json">');
    for (const doc of DOC_PATHS) expect(html).toContain(`<code>${doc}</code>`);
    for (const { route } of listRoutes(sandboxContract)) expect(html).toContain(`<code>${route.method} ${route.path}</code>`);
  });

  it('escapes everything dynamic on the page', () => {
    const index = { ...serviceIndex('<script>alert(1)</script>'), version: '"><img src=x>' };
    const html = indexPage(index);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });
});

describe('GET /openapi.json', () => {
  it("serves the contract's OpenAPI document as it is published, without keys", async () => {
    const res = await fetch(`${sb.url}${OPENAPI_PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.text()).toBe(readFileSync(require.resolve('@switchyard/contract/openapi.json'), 'utf8'));
  });
});

describe('the index routes', () => {
  it('are taken by no route of the API', () => {
    const paths = [...Object.values(contract), sandboxContract].flatMap((router) => listRoutes(router)).map(({ route }) => route.path);
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((p) => p === '/' || p === OPENAPI_PATH)).toEqual([]);
  });
});
