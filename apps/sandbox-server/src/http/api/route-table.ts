import type { AppRoute, AppRouter } from '@ts-rest/core';
import { listRoutes, type RouteMeta } from '@switchyard/contract';

export interface RouteMatcher {
  /** The contract's route, which its handler is found by. */
  route: AppRoute;
  method: string;
  pattern: RegExp;
  meta: RouteMeta;
  /** Each path parameter, by name, and the index of its segment in the path split on `/`. */
  params: Array<{ name: string; index: number }>;
}

const paramsOf = (path: string) =>
  path.split('/').flatMap((segment, index) => (segment.startsWith(':') ? [{ name: segment.slice(1), index }] : []));

/** `/v1/payments/:payment_id` → a regexp matching one path segment per parameter. */
function toPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** Every route of the given routers, to answer 405 and to find idempotent routes before validation. */
export function routeTable(routers: AppRouter[]): RouteMatcher[] {
  return routers.flatMap((router) => listRoutes(router)).map(({ route, meta }) => ({ route, method: route.method, pattern: toPattern(route.path), meta, params: paramsOf(route.path) }));
}

export function matchRoute(table: RouteMatcher[], method: string, path: string): { route?: RouteMatcher; allowed: string[] } {
  // Every request runs this: the hit is found without building the list of allowed methods.
  for (const r of table) if (r.method === method && r.pattern.test(path)) return { route: r, allowed: [method] };
  return { allowed: [...new Set(table.filter((r) => r.pattern.test(path)).map((r) => r.method))] };
}
