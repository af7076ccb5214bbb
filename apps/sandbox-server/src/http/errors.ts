import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import { describeIssues } from '@switchyard/contract';
import { ResponseValidationError } from '@ts-rest/core';
import type { RequestValidationError } from '@ts-rest/express';
import type { Logger } from 'pino';
import { ApiProblem } from '../errors.js';
import { isBankingRoute, sendProblem } from './problem-response.js';

/** ts-rest's request validation failures, answered 400 in the API's shape with every field named. */
export function requestValidationErrorHandler(err: RequestValidationError, _req: Request, res: Response, _next: NextFunction): void {
  const code = isBankingRoute(res) ? 'VALIDATION_ERROR' : 'INVALID_REQUEST';
  const messages = [
    ...(err.pathParams ? describeIssues(err.pathParams, 'path') : []),
    ...(err.headers ? describeIssues(err.headers, 'headers') : []),
    ...(err.query ? describeIssues(err.query, 'query') : []),
    ...(err.body ? describeIssues(err.body, 'body') : []),
  ];
  sendProblem(res, new ApiProblem(400, code, messages));
}

/** The last middleware: every error becomes `{code, messages}`; internals are logged, never returned. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof ApiProblem) {
      sendProblem(res, err);
      return;
    }
    const requestId = res.locals.requestId as string | undefined;
    if (err instanceof ResponseValidationError) {
      logger.error({ requestId, route: req.route?.path, issues: err.cause.issues }, 'response failed contract validation');
    } else {
      logger.error({ requestId, err }, 'unhandled error');
    }
    sendProblem(res, new ApiProblem(500, 'INTERNAL_ERROR', [`internal error; request id ${requestId ?? 'unknown'}`]));
  };
}
