/**
 * Run by hand, not by `pnpm bench`: the payment figures of two or more builds of the sandbox,
 * side by side in one run on the Node that runs this script, to tell whether a change to the
 * request path pays (docs/benchmarks.md, "Spread, then a new key", was measured with it).
 *
 *   node --import tsx src/compare-builds.ts --build before=/copy/of/dist/main.js --build after=/other/dist/main.js
 *     [--rounds 5] [--rate 1000] [--customers 100000]
 *
 * A build is a sandbox CLI (`dist/main.js`) whose imports resolve: a copy of the package's
 * `package.json` and `dist/` placed in a directory under `apps/sandbox-server/node_modules/`
 * does. Every round measures each build in turn (the order alternates), each on sandboxes of
 * its own, with the loads `pnpm bench` uses:
 * - `POST /v1/payments` closed loop, 10 connections, after an unmeasured warm-up, and what the
 *   collector promoted and paused over that sandbox's life (`--trace-gc-nvp`), per payment;
 * - `GET /v1/payments/{id}` closed loop, on a fresh sandbox;
 * - `POST /v1/payments` at a fixed rate (`pnpm bench`'s 1,000 req/s unless told) on a fresh
 *   sandbox holding 100,000 customers unless told, with bare node:http at the same rate once a
 *   round as the floor of generator and machine. On a busy machine a lower rate and store keep
 *   the sandbox below its capacity, where the p99 still tells pauses apart from queueing.
 */
import { parseArgs } from 'node:util';
import { placeLoadGenerator } from './cpu-placement.js';
import { DEMO_KEYS, paymentBody, post, sessions } from './demo-api.js';
import { load, unique, type LoadResult } from './load.js';
import { pacedInProcess as paced } from './paced.js';
import { startBaseline, startSandboxProcess, useCpuPlacement, type Spawned } from './processes.js';
import { checked, customerBody, paymentsAtRate } from './server.js';

const { values } = parseArgs({ options: { build: { type: 'string', multiple: true }, rounds: { type: 'string' }, rate: { type: 'string' }, customers: { type: 'string' } } });
const builds = (values.build ?? []).map((b) => {
  const [name, entry] = b.split('=');
  if (!name || !entry) throw new Error(`--build name=path/to/dist/main.js, not ${b}`);
  return { name, entry };
});
if (builds.length < 2) throw new Error('give at least two --build name=path/to/dist/main.js');
const rounds = Number(values.rounds ?? 5);
const payments = 5000;
const rate = { fixedRate: Number(values.rate ?? 1000), durationSeconds: 5 };
const storedCustomers = Number(values.customers ?? 100_000);

const placement = placeLoadGenerator();
useCpuPlacement(placement);

type Figures = Record<string, number>;

/** A fixed amount of requests, its rate from the wall clock: autocannon's own averages whole seconds. */
async function timed(run: () => Promise<LoadResult>): Promise<{ result: LoadResult; rps: number }> {
  const start = performance.now();
  const result = await run();
  return { result, rps: result.total / ((performance.now() - start) / 1000) };
}

/** What V8's collector reports (`--trace-gc-nvp`) over a sandbox's whole life, summed once its output has closed. */
function collectorTotals(child: Spawned['child']) {
  const totals = { promoted: 0, scavengeMs: 0, markCompacts: 0, markCompactMs: 0 };
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (pending + String(chunk)).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const field = (name: string) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
      if (line.includes(' gc=s ')) {
        totals.promoted += field('promoted');
        totals.scavengeMs += field('pause');
      } else if (line.includes(' gc=mc ')) {
        totals.markCompacts += 1;
        totals.markCompactMs += field('pause');
      }
    }
  });
  return new Promise<typeof totals>((resolve) => child.once('close', () => resolve(totals)));
}

async function measure(entry: string): Promise<Figures> {
  const sandbox = await startSandboxProcess([], entry, ['--trace-gc-nvp']);
  const collected = collectorTotals(sandbox.child);
  let closedLoop: Figures;
  try {
    const paySessions = await sessions(sandbox.url, payments * 2);
    let p = 0;
    const next = () => ({ body: JSON.stringify(paymentBody(paySessions[p++] as string)), headers: { 'x-idempotency-key': unique('pay') } });
    await load({ url: `${sandbox.url}/v1/payments`, headers: DEMO_KEYS, amount: payments, next });
    const created = await timed(() => load({ url: `${sandbox.url}/v1/payments`, headers: DEMO_KEYS, amount: payments, next }));
    closedLoop = { 'POST /v1/payments req/s': created.rps, 'POST /v1/payments p99 ms (closed loop)': checked('payments', created.result).p99 };
  } finally {
    await sandbox.stop();
  }
  // The sandbox's whole life: startup, and each payment with its checkout session.
  const gc = await collected;
  const perPayment = (n: number) => n / (payments * 2);
  const collector = { 'bytes promoted per payment (whole process)': perPayment(gc.promoted), 'scavenge pauses, ms per 1,000 payments': perPayment(gc.scavengeMs) * 1000, 'mark-compacts (whole process)': gc.markCompacts, 'mark-compact pauses, ms (whole process)': gc.markCompactMs };
  const fresh = await startSandboxProcess([], entry);
  try {
    const s = (await sessions(fresh.url, 1))[0] as string;
    const one = await post<{ id: string }>(fresh.url, '/v1/payments', paymentBody(s), { 'x-idempotency-key': unique('get') });
    const read = await timed(() => load({ url: `${fresh.url}/v1/payments/${one.id}`, method: 'GET', headers: DEMO_KEYS, amount: payments }));
    checked('get payment', read.result);
    await load({ url: `${fresh.url}/v1/customers`, headers: DEMO_KEYS, next: customerBody, amount: storedCustomers });
    const atRate = await paymentsAtRate(fresh, rate);
    return { ...closedLoop, ...collector, 'GET /v1/payments/{id} req/s': read.rps, [`POST /v1/payments p99 ms at ${rate.fixedRate} req/s (${storedCustomers} customers stored)`]: atRate.p99, [`POST /v1/payments p50 ms at ${rate.fixedRate} req/s`]: atRate.p50, 'generator send lag p99 ms': atRate.sendLagP99 };
  } finally {
    await fresh.stop();
  }
}

const results = new Map<string, Figures[]>(builds.map((b) => [b.name, []]));
const floors: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const b of order) {
    const figures = await measure(b.entry);
    results.get(b.name)?.push(figures);
    process.stderr.write(`round ${round + 1} ${b.name}: ${JSON.stringify(figures)}\n`);
  }
  const bare = await startBaseline('node-http');
  try {
    floors.push(checked('node:http at fixed rate', await paced({ url: `${bare.url}/v1/customers`, headers: {}, rate: rate.fixedRate, durationSeconds: rate.durationSeconds, warmupSeconds: 1, next: customerBody })).p99);
  } finally {
    await bare.stop();
  }
}

const spreadOf = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
  return `${fmt(sorted[0] ?? 0)} / ${fmt(sorted[Math.floor(sorted.length / 2)] ?? 0)} / ${fmt(sorted[sorted.length - 1] ?? 0)}`;
};
const [first] = builds;
const names = Object.keys(results.get(first?.name ?? '')?.[0] ?? {});
process.stdout.write(`Node ${process.version}, ${rounds} rounds (${placement.description}); min / median / max\n\n`);
process.stdout.write(`| Figure | ${builds.map((b) => b.name).join(' | ')} | ${builds.slice(1).map((b) => `${b.name} / ${first?.name}, round by round`).join(' | ')} |\n`);
process.stdout.write(`|---|${builds.map(() => '---|').join('')}${builds.slice(1).map(() => '---|').join('')}\n`);
for (const name of names) {
  const of = (b: string) => (results.get(b) ?? []).map((f) => f[name] ?? 0);
  const ratios = builds.slice(1).map((b) => spreadOf(of(b.name).map((v, k) => v / (of(first?.name ?? '')[k] ?? 1))));
  process.stdout.write(`| ${name} | ${builds.map((b) => spreadOf(of(b.name))).join(' | ')} | ${ratios.join(' | ')} |\n`);
}
process.stdout.write(`\nFloor (bare node:http at ${rate.fixedRate} req/s, once a round), p99 ms: ${spreadOf(floors)}\n`);
process.exit(0);
