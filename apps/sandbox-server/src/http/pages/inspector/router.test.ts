import { describe, expect, it } from 'vitest';
import { sandboxForSuite } from '../../../test-support/stores.js';
import { INSPECTOR_CSP } from './router.js';
import { INSPECTOR_SCRIPT } from './script.js';

const sb = sandboxForSuite();

describe('the inspector page', () => {
  it('serves its page, script and stylesheet from the sandbox under the Content-Security-Policy', async () => {
    for (const [path, type] of [
      ['/inspector', 'text/html'],
      ['/inspector/inspector.js', 'text/javascript'],
      ['/inspector/inspector.css', 'text/css'],
    ] as const) {
      const res = await fetch(`${sb.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain(type);
      expect(res.headers.get('content-security-policy'), path).toBe(INSPECTOR_CSP);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('has no inline script or style and loads nothing from another origin', async () => {
    const html = await (await fetch(`${sb.url}/inspector`)).text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toEqual(['<script type="module" src="/inspector/inspector.js">']);
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=|https?:\/\//);
  });

  it('builds the page without any HTML parser: no innerHTML, outerHTML, insertAdjacentHTML or document.write', () => {
    expect(INSPECTOR_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });
});
