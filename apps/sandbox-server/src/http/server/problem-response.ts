import type { Response } from 'express';
import type { DomainError } from '../../domain/errors.js';
import { problemOf } from '../../errors.js';

/** True on the banking family's routes, whose errors carry `http_code` and call validation failures VALIDATION_ERROR. */
export function isBankingRoute(res: Response): boolean {
  return (res.locals.route as { meta?: { domain?: string } } | undefined)?.meta?.domain === 'banking';
}

/** Answers with the error: the status of its code (`problemOf`), in the API's error shape. */
export function sendProblem(res: Response, error: DomainError): void {
  const problem = problemOf(error);
  res.status(problem.status).json(problem.toBody(isBankingRoute(res)));
}
