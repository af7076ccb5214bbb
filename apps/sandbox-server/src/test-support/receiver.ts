import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeIdleConnection } from '../http/server/http-server.js';

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A webhook receiver on an ephemeral port: records every request and answers `status()`. */
export async function startReceiver(status: () => number = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += String(c)));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status()).end();
    });
  });
  // The webhook dispatcher posts from this process over kept-alive connections: a receiver that
  // closed one on a late idle timer would reset a delivery and count an extra attempt.
  server.on('timeout', closeIdleConnection);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A receiver that takes every POST, on any path, and never answers it: `held` are the requests it holds. */
export async function startHangingReceiver() {
  const held: { path: string; res: ServerResponse<IncomingMessage> }[] = [];
  const server = createServer((req, res) => void held.push({ path: req.url ?? '', res }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    held,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}

/**
 * Polls until `check` returns a value (not undefined), or fails after `timeoutMs`: a bound on a
 * wait, not a measure of speed, so it is generous (the whole suite shares two cores in CI, where
 * a delivery's first attempt was seen to take over 5 s under load, and 15 s ran out on a machine
 * 20 times slower). A test with two such waits needs a test timeout above the preset's 60 s.
 */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
