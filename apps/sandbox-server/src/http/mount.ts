import type { IRouter, NextFunction, Request, Response } from 'express';
import type { RequestValidationError } from '@ts-rest/express';

/** The ts-rest options every router is mounted with. Passing any options replaces all of ts-rest's defaults. */
export interface MountOptions {
  responseValidation: boolean;
  requestValidationErrorHandler: (err: RequestValidationError, req: Request, res: Response, next: NextFunction) => void;
}

/** A domain's routes, mounted on its router. */
export type Mount = (router: IRouter, options: MountOptions) => void;
