/**
 * Our route for an upstream operation, found in the contract by method and path shape (parameter
 * names differ between the two: `{id}` upstream, `:payment_id` ours, and so on).
 */
import { contract, listRoutes, type ListedRoute } from '@switchyard/contract';

const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}');

export interface OurRoute {
  listed: ListedRoute;
  /** The upstream path parameter names, in order, with ours beside them. */
  renderPath(params: Record<string, string>): string;
}

export function ourRoute(method: string, upstreamPath: string): OurRoute | undefined {
  const listed = listRoutes(contract).find((r) => r.route.method === method && shape(r.route.path) === shape(`/v1${upstreamPath}`));
  if (!listed) return undefined;
  return {
    listed,
    renderPath: (params) =>
      listed.route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
        const value = params[name];
        if (value === undefined) throw new Error(`${listed.key}: no value for path parameter ${name}`);
        return encodeURIComponent(value);
      }),
  };
}
