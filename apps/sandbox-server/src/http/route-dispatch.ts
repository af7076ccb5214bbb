import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { createExpressEndpoints, type RequestValidationError } from '@ts-rest/express';
import { contract, sandboxContract, type RouteMeta } from '@switchyard/contract';
import type { HttpDeps } from './deps.js';
import type { ApiRouters } from './handler.js';
import { handle, type RouteHandler } from './handle.js';
import { handlers } from './handlers.js';
import { matchedRoute } from './locals.js';

/** Every router the sandbox serves: the `/v1` domains and the control API. */
export const API_ROUTERS: ApiRouters = { ...contract, sandbox: sandboxContract };

/** The ts-rest options every route is mounted with. Passing any options replaces all of ts-rest's defaults. */
export interface MountOptions {
  responseValidation: boolean;
  requestValidationErrorHandler: (err: RequestValidationError, req: Request, res: Response, next: NextFunction) => void;
}

/** Each route of `routers` with its handler from `table` (same keys). */
function* routesWithHandlers(routers: Record<string, AppRouter>, table: Record<string, Record<string, RouteHandler>>): Generator<[AppRoute, RouteHandler]> {
  for (const [domain, router] of Object.entries(routers)) {
    for (const [key, route] of Object.entries(router)) {
      const handler = table[domain]?.[key];
      if (!isAppRoute(route) || !handler) throw new Error(`no handler for ${domain}.${key}`);
      yield [route, handler];
    }
  }
}

/**
 * One Express router per route, each holding only that route's ts-rest endpoint, entered
 * straight from the route the gate matched: no request walks the API's other routes.
 */
export function routeDispatch(deps: HttpDeps, options: MountOptions): RequestHandler {
  const routers = new Map<AppRoute, Router>();
  for (const [route, handler] of routesWithHandlers(API_ROUTERS, handlers)) {
    const router = express.Router();
    createExpressEndpoints({ route }, { route: handle(deps, route, route.metadata as RouteMeta, handler) }, router, options);
    routers.set(route, router);
  }
  return (req, res, next) => {
    const router = routers.get(matchedRoute(res).route);
    if (router) router(req, res, next);
    else next();
  };
}
