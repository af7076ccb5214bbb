import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Called for every request: the body to send (and extra headers). */
  next?: () => { body: string; headers?: Record<string, string> };
  connections?: number;
  durationSeconds?: number;
  /** Send exactly this many requests instead of running for a duration. */
  amount?: number;
  /** Requests per second for the whole run (latency under a fixed rate). */
  overallRate?: number;
}

export async function load(o: LoadOptions): Promise<LoadResult> {
  // Requests over the time from the first request sent to the last response received, timed here:
  // autocannon's `requests.average` is a mean of one-second samples, and a run of a fixed amount
  // ends on its next one-second tick, so its own start and finish read 3,000 requests answered in
  // 3.1 s as 750 req/s (and 5,000 as exactly 1,250 in every run).
  let first: number | undefined;
  let last = 0;
  const options: autocannon.Options = {
    url: o.url,
    method: o.method ?? 'POST',
    connections: o.connections ?? 10,
    ...(o.amount ? { amount: o.amount } : { duration: o.durationSeconds ?? 5 }),
    ...(o.overallRate ? { overallRate: o.overallRate } : {}),
    headers: { 'content-type': 'application/json', ...o.headers },
    requests: [
      {
        setupRequest: (req) => {
          first ??= performance.now();
          if (!o.next) return req;
          const n = o.next();
          return { ...req, body: n.body, headers: { ...req.headers, ...n.headers } };
        },
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (err, done) => (err ? reject(err as Error) : resolve(done)));
    instance.on('response', () => {
      last = performance.now();
    });
  });
  const seconds = first === undefined ? 0 : (last - first) / 1000;
  return {
    rps: seconds > 0 ? result.requests.total / seconds : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

let counter = 0;
/** A unique suffix for bodies that must not repeat (merchant_customer_id, idempotency keys). */
export const unique = (prefix: string) => `${prefix}-${process.pid}-${(counter += 1)}`;
