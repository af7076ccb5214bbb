import express, { type Response, type Router } from 'express';
import { INSPECTOR_PATH, SCRIPT_PATH, STYLESHEET_PATH, inspectorPage } from './page.js';
import { INSPECTOR_SCRIPT } from './script.js';
import { INSPECTOR_STYLESHEET } from './style.js';

/**
 * Defence in depth behind building the page with textContent: no inline script or style, nothing
 * from another origin, the API reached on this origin only, no form that submits anywhere (the
 * sign-in form is handled by the script; should it fail, the keys still cannot be posted), and
 * no framing.
 */
export const INSPECTOR_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function send(res: Response, type: string, body: string): void {
  res.setHeader('content-security-policy', INSPECTOR_CSP);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('cache-control', 'no-store');
  res.type(type).send(body);
}

/**
 * The inspector (`/inspector`): one page, its script and its stylesheet, all static. Nothing here
 * reads the store; the page reads the API from the browser with the merchant's keys, so it sees
 * exactly what those keys may see.
 */
export function inspector(): Router {
  const router = express.Router();
  const html = inspectorPage();
  router.get(INSPECTOR_PATH, (_req, res) => send(res, 'html', html));
  router.get(SCRIPT_PATH, (_req, res) => send(res, 'text/javascript', INSPECTOR_SCRIPT));
  router.get(STYLESHEET_PATH, (_req, res) => send(res, 'css', INSPECTOR_STYLESHEET));
  return router;
}
