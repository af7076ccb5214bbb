import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_HTTP_TIMEOUTS } from '@switchyard/sandbox-server';

/**
 * A stand-in for a staging: a correct sandbox behind a proxy that has no `/sandbox` control API
 * (every path under it answers 404, as on a server that never had one) and counts what asked for it.
 */
export async function startWithoutControlApi(target: string) {
  const upstream = new URL(target);
  const controlRequests: string[] = [];
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    const path = req.url ?? '/';
    if (path === '/sandbox' || path.startsWith('/sandbox/') || path.startsWith('/sandbox?')) {
      controlRequests.push(`${req.method} ${path}`);
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'NOT_FOUND', messages: [`no route for ${req.method} ${path.split('?')[0]}`] }));
      return;
    }
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', (error) => res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'INTERNAL_ERROR', messages: [error.message] })));
    req.pipe(forward);
  });
  // As the sandbox keeps them: at Node's 5 s, a pooled connection the runner reused just as this
  // server closed it was lost ("other side closed").
  server.keepAliveTimeout = DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Every request that reached for the control API: a staging run must leave this empty. */
    controlRequests,
    /** How many requests arrived, whatever their path. */
    get requests() {
      return requests;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
