import type { RequestHandler } from 'express';

/** The policy every page of the sandbox carries at least: no other site may frame it (clickjacking of a card or consent form). */
export const FRAME_ANCESTORS_NONE = "frame-ancestors 'none'";

/**
 * Sets `Content-Security-Policy: frame-ancestors 'none'` (and `X-Frame-Options: DENY` for browsers
 * without CSP) on every response, pages and API alike; a page with a fuller policy of its own (the
 * inspector's) replaces it with one that keeps `frame-ancestors 'none'`.
 */
export const denyFraming: RequestHandler = (_req, res, next) => {
  res.setHeader('content-security-policy', FRAME_ANCESTORS_NONE);
  res.setHeader('x-frame-options', 'DENY');
  next();
};
