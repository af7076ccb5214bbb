import type { Response } from 'express';
import { ApiProblem } from '../errors.js';

export function sendProblem(res: Response, problem: ApiProblem): void {
  res.status(problem.status).json(problem.toBody());
}

export const problem = (status: number, code: string, message: string) => new ApiProblem(status, code, [message]);
