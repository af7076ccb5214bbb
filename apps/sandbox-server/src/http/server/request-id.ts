import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';

export const REQUEST_ID = 'x-request-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's x-request-id when it is a sane token, else a fresh one. */
export function requestIdFor(headers: IncomingHttpHeaders = {}): string {
  const given = headers[REQUEST_ID];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}

/** Echoes the caller's x-request-id (when it is a sane token) or makes one; returns it. */
export function assignRequestId(req: Request, res: Response): string {
  const id = requestIdFor(req.headers);
  res.locals.requestId = id;
  res.setHeader(REQUEST_ID, id);
  return id;
}
