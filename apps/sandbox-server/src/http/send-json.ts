import type { Response } from 'express';

/**
 * Replaces Express's `res.json` on this app's responses. Express's version re-parses the
 * content type it has just set to add a charset, and runs `send`'s ETag and freshness logic,
 * which this API turns off (see docs/benchmarks.md). Node itself drops the body of a HEAD
 * response.
 */
export function sendJson(this: Response, body: unknown): Response {
  const text = JSON.stringify(body);
  if (!this.hasHeader('content-type')) this.setHeader('content-type', 'application/json; charset=utf-8');
  this.setHeader('content-length', Buffer.byteLength(text));
  this.end(text);
  return this;
}
