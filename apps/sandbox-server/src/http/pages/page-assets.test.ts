import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../test-support/harness.js';
import { styledPage } from './html.js';
import { FAVICON_SVG, PAGE_STYLESHEET } from './page-assets.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.stop());

const HEAD = '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" type="image/svg+xml" href="/favicon.svg"><link rel="stylesheet" href="/assets/sandbox.css">';

describe('the pages\' one stylesheet and icon', () => {
  it('are in the head of every page: the index, the inspector and the pages built with styledPage', async () => {
    for (const path of ['/', '/inspector']) expect(await (await fetch(`${sb.url}${path}`)).text(), path).toContain(HEAD);
    expect(styledPage('t', '<p>x</p>')).toContain(HEAD);
    expect(styledPage('t', '<p>x</p>')).not.toMatch(/<style\b/);
  });

  it('are served by the sandbox, with /favicon.ico answering the icon browsers ask for on their own', async () => {
    for (const [path, type, body] of [
      ['/assets/sandbox.css', 'text/css', PAGE_STYLESHEET],
      ['/favicon.svg', 'image/svg+xml', FAVICON_SVG],
      ['/favicon.ico', 'image/svg+xml', FAVICON_SVG],
    ] as const) {
      const res = await fetch(`${sb.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain(type);
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=3600');
      expect(await res.text(), path).toBe(body);
    }
  });

  it('keep the stylesheet small', () => {
    expect(Buffer.byteLength(PAGE_STYLESHEET)).toBeLessThan(4096);
  });
});
