import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * One POST, answered by its status once the head arrives (the body is not read: only the status
 * counts). Made with node:http rather than fetch so that `lookup` decides the address connected
 * to (docs/security.md, "Webhook destinations"); no redirect is followed, no connection is kept.
 */
export function postOnce(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal, lookup: LookupFunction): Promise<number> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, signal, lookup, agent: false }, (res) => {
      resolve(res.statusCode ?? 0);
      res.destroy();
    });
    req.on('error', reject);
    req.end(body);
  });
}
