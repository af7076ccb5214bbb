import type { IncomingHttpHeaders } from 'node:http';
import { listen } from '@switchyard/tooling/test-server';

export type Step =
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  | { reset: true }
  | { hang: true };

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP server on an ephemeral port that answers with scripted steps, one per request
 * (the last step repeats), and records what it received.
 */
export async function startFaultServer(steps: Step[]) {
  const requests: RecordedRequest[] = [];
  const { url, cut } = await listen((req, res) => {
    // Recorded on arrival, so a request aborted before its body was read still counts.
    const record: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
    requests.push(record);
    const step = steps[Math.min(requests.length - 1, steps.length - 1)] as Step;
    req.on('data', (chunk) => (record.body += String(chunk)));
    req.on('end', () => {
      if ('reset' in step) {
        req.socket.destroy();
        return;
      }
      if ('hang' in step) return;
      setTimeout(() => {
        res.writeHead(step.status, { 'content-type': 'application/json', 'x-request-id': `req-${requests.indexOf(record) + 1}`, ...step.headers });
        res.end(step.body === undefined ? '' : JSON.stringify(step.body));
      }, step.delayMs ?? 0);
    });
  });
  return {
    url,
    requests,
    // A hanging step never answers: its connection is cut, or the close would wait for it.
    close: cut,
  };
}
