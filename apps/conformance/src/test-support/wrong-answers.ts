import { listen } from '@switchyard/tooling/test-server';
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
  const { url, close } = await listen((req, res) => {
    const route = routeFor(req.method ?? 'GET', (req.url ?? '/').split('?')[0] as string);
    const status = Number(Object.keys(route?.route.responses ?? {}).find((s) => s.startsWith('2')) ?? 404);
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(WRONG_ANSWER));
  });
  return { url, close };
}
