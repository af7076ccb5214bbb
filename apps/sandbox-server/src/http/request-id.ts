import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';

const REQUEST_ID = 'x-request-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes the caller's x-request-id (when it is a sane token) or makes one; returns it. */
export function assignRequestId(req: Request, res: Response): string {
  const given = req.headers[REQUEST_ID];
  const id = typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader(REQUEST_ID, id);
  return id;
}
