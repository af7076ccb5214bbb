import type { ServerResponse } from 'node:http';

/**
 * A test proxy's answer when it cannot reach the server behind it: 502, as a gateway's, in the
 * API's error shape, so the runner in front reports it as it would any failed request.
 */
export function answerBadGateway(res: ServerResponse, message: string): void {
  if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code: 'INTERNAL_ERROR', messages: [message] }));
}
