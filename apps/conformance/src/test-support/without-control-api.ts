import { request } from 'node:http';
import { listen } from '@switchyard/tooling/test-server';
import { answerBadGateway } from './bad-gateway.js';

/**
 * A stand-in for a staging: a correct sandbox behind a proxy that has no `/sandbox` control API
 * (every path under it answers 404, as on a server that never had one) and counts what asked for it.
 */
export async function startWithoutControlApi(target: string) {
  const upstream = new URL(target);
  const controlRequests: string[] = [];
  let requests = 0;
  const { url, close } = await listen((req, res) => {
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
    forward.on('error', (error) => answerBadGateway(res, `staging stand-in: ${error.message}`));
    req.pipe(forward);
  });
  return {
    url,
    /** Every request that reached for the control API: a staging run must leave this empty. */
    controlRequests,
    /** How many requests arrived, whatever their path. */
    get requests() {
      return requests;
    },
    close,
  };
}
