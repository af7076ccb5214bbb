import { FAVICON_PATH, STYLESHEET_PATH } from './page-assets.js';

/** Text for an HTML page: `&`, `<`, `>` and quotes become character references. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The one HTML document every sandbox page is: sized for phones, with the sandbox's icon and its
 * one stylesheet (page-assets.ts; a file, not inline, so the inspector's Content-Security-Policy
 * allows it). `head` adds to the head, `body` is built with `escapeHtml` around anything dynamic.
 */
function htmlDocument(title: string, head: string, body: string, bodyClass?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}"><link rel="stylesheet" href="${STYLESHEET_PATH}">${head}<title>${escapeHtml(title)}</title></head><body${bodyClass ? ` class="${bodyClass}"` : ''}>${body}</body></html>`;
}

/** A complete page with the shared look: the index, the hosted checkout, the payer and enrollment pages. `body` is HTML built with `escapeHtml`. */
export function styledPage(title: string, body: string): string {
  return htmlDocument(title, '', `<main>${body}</main>`);
}

/**
 * A complete page, as wide as a desktop allows, that loads its module script from the sandbox
 * itself (the inspector's Content-Security-Policy allows nothing inline). `body` is HTML built
 * with `escapeHtml`.
 */
export function pageWithScript(title: string, script: string, body: string): string {
  return htmlDocument(title, `<script type="module" src="${escapeHtml(script)}"></script>`, body, 'wide');
}
