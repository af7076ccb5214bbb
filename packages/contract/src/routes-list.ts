import type { AppRoute, AppRouter } from '@ts-rest/core';
import { isAppRoute } from '@ts-rest/core';
import type { RouteMeta } from './meta.js';

export interface ListedRoute {
  /** Dotted key in the router, for example `payments.refund`. */
  key: string;
  route: AppRoute;
  meta: RouteMeta;
}

/** Flattens a router into its routes with their metadata, in declaration order. */
export function listRoutes(router: AppRouter, prefix = ''): ListedRoute[] {
  return Object.entries(router).flatMap(([name, value]) => {
    const key = prefix ? `${prefix}.${name}` : name;
    if (isAppRoute(value)) return [{ key, route: value, meta: value.metadata as RouteMeta }];
    return listRoutes(value, key);
  });
}

/** Routes that need `X-Idempotency-Key`, as `METHOD path` pairs. */
export function idempotentRoutes(router: AppRouter): ListedRoute[] {
  return listRoutes(router).filter((r) => r.meta.idempotent);
}
