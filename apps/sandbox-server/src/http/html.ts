/** Text for an HTML page: `&`, `<`, `>` and quotes become character references. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A complete page; `body` is HTML the caller built with `escapeHtml` around anything dynamic. */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`;
}
