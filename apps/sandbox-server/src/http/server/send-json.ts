import type { Response } from 'express';

/**
 * Present (undefined until sent) on a response whose body the request journal keeps: `sendJson`
 * leaves the body it sent there, with its size, so the journal neither re-reads nor re-serializes it.
 */
export const SENT_BODY = Symbol('sent body');
export interface SentBody {
  body: unknown;
  bytes: number;
}
export type JournaledResponse = Response & { [SENT_BODY]?: SentBody };

/**
 * Replaces Express's `res.json` on this app's responses. Express's version re-parses the
 * content type it has just set to add a charset, and runs `send`'s ETag and freshness logic,
 * which this API turns off (see docs/benchmarks.md). Node itself drops the body of a HEAD
 * response.
 */
export function sendJson(this: JournaledResponse, body: unknown): Response {
  const text = JSON.stringify(body);
  const bytes = Buffer.byteLength(text);
  if (!this.hasHeader('content-type')) this.setHeader('content-type', 'application/json; charset=utf-8');
  this.setHeader('content-length', bytes);
  if (SENT_BODY in this) this[SENT_BODY] = { body, bytes };
  this.end(text);
  return this;
}
