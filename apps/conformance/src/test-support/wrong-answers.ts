import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contract, listRoutes, type ListedRoute } from '@switchyard/contract';

/** An answer no operation of the contract may give: the wrong types, and nothing an answer requires. */
export const WRONG_ANSWER = { id: 5, status: 123 };

/** The route a request is for, by method and path (the `/v1` routes only). */
export function routeFor(method: string, path: string): ListedRoute | undefined {
  return listRoutes(contract).find((r) => r.route.method === method && new RegExp(`^${r.route.path.replace(/:\w+/g, '[^/]+')}$`).test(path));
}

/**
 * A server that answers every `/v1` operation with its own success status and `WRONG_ANSWER` as
 * the body: in front of it, a validating proxy must report a response violation on every operation.
 */
export async function startWrongAnswerServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const route = routeFor(req.method ?? 'GET', (req.url ?? '/').split('?')[0] as string);
    const status = Number(Object.keys(route?.route.responses ?? {}).find((s) => s.startsWith('2')) ?? 404);
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(WRONG_ANSWER));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
