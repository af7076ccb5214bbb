import express, { type Router } from 'express';

export const STYLESHEET_PATH = '/assets/sandbox.css';
export const FAVICON_PATH = '/favicon.svg';

/**
 * The one stylesheet of every sandbox page (the index, the hosted checkout and its 3-D Secure
 * challenge, the payer and enrollment pages, the inspector): system fonts, one column that fits a
 * 360 px screen, inputs as wide as the page, a focus ring a keyboard user can see, and dark mode.
 * Served by the sandbox itself (no CDN: the sandbox works offline).
 */
export const PAGE_STYLESHEET = `*{box-sizing:border-box}
:root{color-scheme:light dark;--fg:#1a1a1a;--bg:#f4f5f7;--card:#fff;--line:#d0d4da;--muted:#4b5563;--accent:#1d4ed8;--bad:#9b1c1c;--bad-bg:#fde8e8}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8ea;--bg:#15171a;--card:#1f2226;--line:#3a3f46;--muted:#a0a6ae;--accent:#7aa2ff;--bad:#ffb4b4;--bad-bg:#4a1f1f}}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
main,header{max-width:32rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere}
body.wide main,body.wide header{max-width:70rem}
header{padding-bottom:0}
h1{font-size:1.4rem;margin:.5rem 0}
h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
h3{font-size:1rem;margin:.75rem 0 .25rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;margin:1rem 0}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,select{width:100%;font:inherit;padding:.6rem;border:1px solid var(--line);border-radius:6px;background:var(--card);color:inherit}
input[type=checkbox]{width:auto}
.row{display:flex;flex-wrap:wrap;gap:.5rem .75rem;align-items:flex-end}.row>div{flex:1;min-width:0}.row label{margin:0}
button{font:inherit;padding:.7rem 1rem;border:0;border-radius:6px;background:var(--accent);color:#fff;cursor:pointer;margin-top:1rem;width:100%}
button.secondary{background:var(--card);color:var(--accent);border:1px solid var(--accent)}
.row button,.items button{width:auto;margin-top:.25rem}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.amount{font-size:1.6rem;font-weight:700}
.error,#error{color:var(--bad);background:var(--bad-bg);border-radius:6px;padding:.75rem}
#error:empty,#status:empty{display:none}
.hint,.bound{color:var(--muted);font-size:.9rem;margin:.25rem 0}
a{color:var(--accent)}
ul.links{padding-left:1.1rem}ul.links li{margin:.25rem 0}
dl{display:grid;grid-template-columns:minmax(6rem,max-content) 1fr;gap:.1rem .75rem;margin:.5rem 0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
code,pre{font-size:.85rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#8881;padding:.5rem;margin:.25rem 0;border-radius:4px}
.qr{width:15rem;max-width:100%;margin:.5rem auto;background:#fff;border-radius:6px}.qr svg{display:block;width:100%;height:auto}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem .75rem;list-style:none;padding:0;margin:.5rem 0}
details.item{background:var(--card);border:1px solid var(--line);border-radius:6px;margin:.35rem 0;padding:.25rem .5rem}
summary{cursor:pointer;overflow-wrap:anywhere;padding:.15rem 0}
ul.lines,ol.attempts{padding-left:1.1rem;margin:.25rem 0;overflow-wrap:anywhere}
ol.timeline{list-style:none;padding:0;margin:.25rem 0;border-left:2px solid var(--line)}
ol.timeline li{padding:.1rem 0 .1rem .75rem;overflow-wrap:anywhere}
ol.timeline .kind{font-weight:600;margin-right:.35rem}
@media (max-width:30rem){dl{grid-template-columns:1fr}dd{margin-bottom:.3rem}}`;

/** The sandbox's icon: a switch track on the accent colour, so a tab of the sandbox is told apart from the app it serves. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M7 24V8m0 8h9l9-8M16 16l9 8" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

/**
 * The stylesheet, the icon and `/favicon.ico` (which browsers ask for on their own; it answers
 * the same SVG). Cached for an hour: they change only with the sandbox's version.
 */
export function pageAssets(): Router {
  const router = express.Router();
  const send = (type: string, body: string) => (_req: express.Request, res: express.Response) => {
    res.setHeader('cache-control', 'public, max-age=3600');
    res.setHeader('x-content-type-options', 'nosniff');
    res.type(type).send(body);
  };
  router.get(STYLESHEET_PATH, send('css', PAGE_STYLESHEET));
  router.get([FAVICON_PATH, '/favicon.ico'], send('image/svg+xml', FAVICON_SVG));
  return router;
}
