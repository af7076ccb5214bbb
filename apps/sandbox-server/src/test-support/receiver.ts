import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen } from '@switchyard/tooling/test-server';

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A webhook receiver on an ephemeral port: records every request and answers `status()`. */
export async function startReceiver(status: () => number = () => 200) {
  const received: Received[] = [];
  const { url, close } = await listen((req, res) => {
    let body = '';
    req.on('data', (c) => (body += String(c)));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status()).end();
    });
  });
  return { url: `${url}/hooks`, received, close };
}

/** A receiver that takes every POST, on any path, and never answers it: `held` are the requests it holds. */
export async function startHangingReceiver() {
  const held: { path: string; res: ServerResponse<IncomingMessage> }[] = [];
  const { url, cut } = await listen((req, res) => void held.push({ path: req.url ?? '', res }));
  // The held requests never end: their connections are cut, or the close would wait for them.
  return { url: `${url}/hooks`, held, close: cut };
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
