import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';

export interface PacedResult {
  /** Requests per second actually sent. */
  rate: number;
  p50: number;
  p99: number;
  max: number;
  /** How late the generator itself sent: p99 and max of (sent − due), in ms. */
  sendLagP99: number;
  sendLagMax: number;
  non2xx: number;
  errors: number;
  total: number;
}

export interface PacedOptions {
  url: string;
  headers: Record<string, string>;
  /** The body (and extra headers) of request `i`. */
  next: (i: number) => { body: string; headers?: Record<string, string> };
  rate: number;
  durationSeconds: number;
  /** Most requests in flight at once; more wait, and their wait counts in their latency. */
  maxConnections?: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/**
 * An open-loop load at an even rate, as wrk2 makes it: request `i` is due at `start + i / rate`,
 * whether or not earlier ones have answered, and its latency is counted from when it was due,
 * not from when it could be sent. A server that stalls is charged for every request that queued
 * behind the stall (no coordinated omission). autocannon's `overallRate` is not this: each
 * connection sends as fast as it can until it has made its share of the second, then waits, so
 * its "fixed rate" is a burst at full load followed by silence.
 */
export function paced(o: PacedOptions): Promise<PacedResult> {
  const total = Math.round(o.rate * o.durationSeconds);
  const agent = new Agent({ keepAlive: true, maxSockets: o.maxConnections ?? 64 });
  const latencies: number[] = [];
  const lags: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let done = 0;
  const start = performance.now();
  return new Promise((resolve) => {
    const finish = () => {
      agent.destroy();
      const sorted = latencies.sort((a, b) => a - b);
      const lagSorted = lags.sort((a, b) => a - b);
      const elapsed = (performance.now() - start) / 1000;
      resolve({ rate: total / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? 0, sendLagP99: percentile(lagSorted, 99), sendLagMax: lagSorted[lagSorted.length - 1] ?? 0, non2xx, errors, total: done });
    };
    const send = (i: number) => {
      const due = start + (i * 1000) / o.rate;
      const { body, headers } = o.next(i);
      const req = request(o.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...o.headers, ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - due);
          if ((res.statusCode ?? 0) >= 300) non2xx += 1;
          done += 1;
          if (done === total) finish();
        });
      });
      req.on('error', () => {
        errors += 1;
        done += 1;
        if (done === total) finish();
      });
      req.end(body);
      lags.push(performance.now() - due);
    };
    // A timer, not a busy loop: the generator must leave its CPU to the system. A late timer
    // sends what fell due at once, and the lateness is charged to those requests.
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * o.rate) / 1000) + 1);
      while (sent < due) send(sent++);
      if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / o.rate - performance.now()));
    };
    tick();
  });
}

/**
 * `paced` in a separate process (see paced-process.ts), with every request made up front, after
 * `warmupSeconds` of the same load that is not counted.
 * The child inherits this process's CPU placement (see cpu-placement.ts).
 */
export function pacedInProcess(o: PacedOptions & { warmupSeconds: number }): Promise<PacedResult> {
  const warmupCount = Math.round(o.rate * o.warmupSeconds);
  const warmup = Array.from({ length: warmupCount }, (_, i) => o.next(i));
  const requests = Array.from({ length: Math.round(o.rate * o.durationSeconds) }, (_, i) => o.next(warmupCount + i));
  const { next: _next, warmupSeconds: _warmup, ...options } = o;
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./paced-process.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (result) => resolve(result as PacedResult));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the paced load generator exited with ${code}`));
    });
    child.send({ ...options, warmup, requests });
  });
}
