import type { Response } from 'express';
import { ApiProblem } from '../errors.js';

/** True on the banking family's routes, whose errors carry `http_code` and call validation failures VALIDATION_ERROR. */
export function isBankingRoute(res: Response): boolean {
  return (res.locals.route as { meta?: { domain?: string } } | undefined)?.meta?.domain === 'banking';
}

export function sendProblem(res: Response, problem: ApiProblem): void {
  res.status(problem.status).json(problem.toBody(isBankingRoute(res)));
}

export const problem = (status: number, code: string, message: string) => new ApiProblem(status, code, [message]);
