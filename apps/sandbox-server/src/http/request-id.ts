import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const REQUEST_ID = 'x-request-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes the caller's x-request-id (when it is a sane token) or makes one, on every response. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.header(REQUEST_ID);
  const id = given && SAFE_ID.test(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader(REQUEST_ID, id);
  next();
};
