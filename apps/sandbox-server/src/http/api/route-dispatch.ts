import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import { createExpressEndpoints, type RequestValidationError } from '@ts-rest/express';
import { contract, listRoutes, sandboxContract, type ListedRoute } from '@switchyard/contract';
import type { HttpDeps } from './deps.js';
import type { ApiRouters } from './handler-types.js';
import { handle, type RouteHandler } from './handle.js';
import { handlers } from './handler-table.js';
import { matchedRoute } from '../server/locals.js';

/** Every router the sandbox serves: the `/v1` domains and the control API. */
export const API_ROUTERS: ApiRouters = { ...contract, sandbox: sandboxContract };

/** The ts-rest options every route is mounted with. Passing any options replaces all of ts-rest's defaults. */
export interface MountOptions {
  responseValidation: boolean;
  requestValidationErrorHandler: (err: RequestValidationError, req: Request, res: Response, next: NextFunction) => void;
}

/** Each route of `routers` with its metadata and its handler from `table` (same keys). */
function* routesWithHandlers(routers: Record<string, AppRouter>, table: Record<string, Record<string, RouteHandler>>): Generator<ListedRoute & { handler: RouteHandler }> {
  for (const [domain, router] of Object.entries(routers)) {
    for (const listed of listRoutes(router)) {
      const handler = table[domain]?.[listed.key];
      if (!handler) throw new Error(`no handler for ${domain}.${listed.key}`);
      yield { ...listed, handler };
    }
  }
}

/**
 * One Express router per route, each holding only that route's ts-rest endpoint, entered
 * straight from the route the gate matched: no request walks the API's other routes.
 */
export function routeDispatch(deps: HttpDeps, options: MountOptions): RequestHandler {
  const routers = new Map<AppRoute, Router>();
  for (const { route, meta, handler } of routesWithHandlers(API_ROUTERS, handlers)) {
    const router = express.Router();
    createExpressEndpoints({ route }, { route: handle(deps, route, meta, handler) }, router, options);
    routers.set(route, router);
  }
  return (req, res, next) => {
    const router = routers.get(matchedRoute(res).route);
    if (router) router(req, res, next);
    else next();
  };
}
