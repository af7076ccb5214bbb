import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import { bodyFieldCodeOf, describeRequestIssues, type ErrorCode, type RouteMeta } from '@switchyard/contract';
import { ResponseValidationError } from '@ts-rest/core';
import type { RequestValidationError } from '@ts-rest/express';
import type { Logger } from 'pino';
import { DomainError } from '../../domain/errors.js';
import { matchedRoute } from './locals.js';
import { isBankingRoute, sendProblem } from './problem-response.js';

/** Bad input; the banking family calls it VALIDATION_ERROR, a route whose contract names its own code (webhooks) that one. */
export function validationProblem(res: Response, messages: string[], code?: ErrorCode): DomainError {
  const own = (res.locals.route as { meta?: RouteMeta } | undefined)?.meta?.validationCode;
  return new DomainError(code ?? own ?? (isBankingRoute(res) ? 'VALIDATION_ERROR' : 'INVALID_REQUEST'), messages);
}

/**
 * The code the route's contract gives its first invalid field (`bodyFieldCodeOf`), when the path,
 * headers and query are valid and the first failing rule is in the body; else none.
 */
function bodyFieldCode(res: Response, err: RequestValidationError): ErrorCode | undefined {
  if (err.pathParams || err.headers || err.query) return undefined;
  return bodyFieldCodeOf(matchedRoute(res).meta, err.body?.issues[0]?.path ?? []);
}

/** ts-rest's request validation failures, answered 400 in the API's shape with the fields named (bounded: describeRequestIssues). */
export function requestValidationErrorHandler(err: RequestValidationError, _req: Request, res: Response, next: NextFunction): void {
  const messages = describeRequestIssues({ path: err.pathParams, headers: err.headers, query: err.query, body: err.body });
  // Passed on, not sent: an authenticated request's error is answered only once its merchant record is known current (api/stale-merchant.ts).
  next(validationProblem(res, messages, bodyFieldCode(res, err)));
}

/** The last middleware: every error becomes `{code, messages}`; internals are logged, never returned. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof DomainError) {
      sendProblem(res, err);
      return;
    }
    // Express decodes the parameters of its own routes (the hosted checkout page) and throws
    // this on bad percent-encoding; the API's routes check theirs first (request-text.ts).
    if (err instanceof URIError) {
      sendProblem(res, validationProblem(res, ['path: is not valid percent-encoded UTF-8']));
      return;
    }
    const requestId = res.locals.requestId as string | undefined;
    if (err instanceof ResponseValidationError) {
      logger.error({ requestId, route: req.route?.path, issues: err.cause.issues }, 'response failed contract validation');
    } else {
      logger.error({ requestId, err }, 'unhandled error');
    }
    sendProblem(res, new DomainError('INTERNAL_ERROR', [`internal error; request id ${requestId ?? 'unknown'}`]));
  };
}
