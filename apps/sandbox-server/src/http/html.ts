/** Text for an HTML page: `&`, `<`, `>` and quotes become character references. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A complete page; `body` is HTML the caller built with `escapeHtml` around anything dynamic. */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`;
}

/**
 * A complete page that loads its stylesheet and its module script from the sandbox itself (the
 * inspector's Content-Security-Policy allows nothing inline). `body` is HTML built with `escapeHtml`.
 */
export function pageWithAssets(title: string, assets: { stylesheet: string; script: string }, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="stylesheet" href="${escapeHtml(assets.stylesheet)}"><script type="module" src="${escapeHtml(assets.script)}"></script></head><body>${body}</body></html>`;
}
