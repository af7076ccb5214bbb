/** Text for an HTML page: `&`, `<`, `>` and quotes become character references. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The one HTML document every sandbox page is: `head` adds to the head, `body` is built with `escapeHtml` around anything dynamic. */
function htmlDocument(title: string, head: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}<title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

/** Pages read on phones fit the screen's width. */
const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/** A complete page; `body` is HTML the caller built with `escapeHtml` around anything dynamic. */
export function page(title: string, body: string): string {
  return htmlDocument(title, '', `<main>${body}</main>`);
}

/**
 * The sandbox pages' shared look, inline (no CDN, no external asset: the sandbox works offline):
 * readable at 360 px wide, inputs as wide as the page, and a focus ring a keyboard user can see.
 */
export const PAGE_CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:32rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere}
h1{font-size:1.4rem;margin:.5rem 0}
h2{font-size:1.15rem;margin:0 0 .5rem}
.card{background:#fff;border:1px solid #d0d4da;border-radius:8px;padding:1rem;margin:1rem 0}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem;border:1px solid #8a909a;border-radius:6px}
.row{display:flex;gap:.75rem;align-items:flex-end}.row>div{flex:1;min-width:0}
button{font:inherit;padding:.7rem 1rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;cursor:pointer;margin-top:1rem;width:100%}
button.secondary{background:#fff;color:#1d4ed8;border:1px solid #1d4ed8}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.amount{font-size:1.6rem;font-weight:700}
.error{color:#9b1c1c;background:#fde8e8;border-radius:6px;padding:.75rem}
.hint{color:#4b5563;font-size:.9rem}
a{color:#1d4ed8}`;

/** A page with the shared look, sized for phones: what the hosted checkout and other interactive pages render. */
export function styledPage(title: string, body: string): string {
  return htmlDocument(title, `${VIEWPORT}<style>${PAGE_CSS}</style>`, `<main>${body}</main>`);
}

/**
 * A complete page that loads its stylesheet and its module script from the sandbox itself (the
 * inspector's Content-Security-Policy allows nothing inline). `body` is HTML built with `escapeHtml`.
 */
export function pageWithAssets(title: string, assets: { stylesheet: string; script: string }, body: string): string {
  return htmlDocument(title, `${VIEWPORT}<link rel="stylesheet" href="${escapeHtml(assets.stylesheet)}"><script type="module" src="${escapeHtml(assets.script)}"></script>`, body);
}
