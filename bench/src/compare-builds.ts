/**
 * Run by hand, not by `pnpm bench`: the payment figures of two or more builds of the sandbox,
 * side by side in one run on the Node that runs this script, to tell whether a change to the
 * request path pays (docs/benchmarks.md, "Spread, then a new key", was measured with it).
 *
 *   node --import tsx src/compare-builds.ts --build before=/copy/of/dist/main.js --build after=/other/dist/main.js [--rounds 5]
 *
 * A build is a sandbox CLI (`dist/main.js`) whose imports resolve: a copy of the package's
 * `package.json` and `dist/` placed in a directory under `apps/sandbox-server/node_modules/`
 * does. Every round measures each build in turn (the order alternates), each on sandboxes of
 * its own, with the loads `pnpm bench` uses:
 * - `POST /v1/payments` closed loop, 10 connections, after an unmeasured warm-up;
 * - `GET /v1/payments/{id}` closed loop, on the same sandbox;
 * - `POST /v1/payments` at a fixed rate on a fresh sandbox holding 100,000 customers, with bare
 *   node:http at the same rate once a round as the floor of generator and machine.
 */
import { parseArgs } from 'node:util';
import { placeLoadGenerator } from './cpu-placement.js';
import { DEMO_KEYS, post } from './demo-api.js';
import { load, unique, type LoadResult } from './load.js';
import { pacedInProcess as paced } from './paced.js';
import { startBaseline, startSandboxProcess, useCpuPlacement } from './processes.js';
import { checked, customerBody, paymentBody, paymentsAtRate, sessions } from './server.js';

const { values } = parseArgs({ options: { build: { type: 'string', multiple: true }, rounds: { type: 'string' } } });
const builds = (values.build ?? []).map((b) => {
  const [name, entry] = b.split('=');
  if (!name || !entry) throw new Error(`--build name=path/to/dist/main.js, not ${b}`);
  return { name, entry };
});
if (builds.length < 2) throw new Error('give at least two --build name=path/to/dist/main.js');
const rounds = Number(values.rounds ?? 5);
const payments = 5000;
const rate = { fixedRate: 1000, durationSeconds: 5 };
const storedCustomers = 100_000;

const placement = placeLoadGenerator();
useCpuPlacement(placement);

type Figures = Record<string, number>;

/** A fixed amount of requests, its rate from the wall clock: autocannon's own averages whole seconds. */
async function timed(run: () => Promise<LoadResult>): Promise<{ result: LoadResult; rps: number }> {
  const start = performance.now();
  const result = await run();
  return { result, rps: result.total / ((performance.now() - start) / 1000) };
}

async function measure(entry: string): Promise<Figures> {
  const sandbox = await startSandboxProcess([], entry);
  let closedLoop: Figures;
  try {
    const paySessions = await sessions(sandbox.url, payments * 2);
    let p = 0;
    const next = () => ({ body: JSON.stringify(paymentBody(paySessions[p++] as string)), headers: { 'x-idempotency-key': unique('pay') } });
    await load({ url: `${sandbox.url}/v1/payments`, headers: DEMO_KEYS, amount: payments, next });
    const created = await timed(() => load({ url: `${sandbox.url}/v1/payments`, headers: DEMO_KEYS, amount: payments, next }));
    const s = (await sessions(sandbox.url, 1))[0] as string;
    const one = await post<{ id: string }>(sandbox.url, '/v1/payments', paymentBody(s), { 'x-idempotency-key': unique('get') });
    const read = await timed(() => load({ url: `${sandbox.url}/v1/payments/${one.id}`, method: 'GET', headers: DEMO_KEYS, amount: payments }));
    checked('get payment', read.result);
    closedLoop = { 'POST /v1/payments req/s': created.rps, 'POST /v1/payments p99 ms (closed loop)': checked('payments', created.result).p99, 'GET /v1/payments/{id} req/s': read.rps };
  } finally {
    await sandbox.stop();
  }
  const fresh = await startSandboxProcess([], entry);
  try {
    await load({ url: `${fresh.url}/v1/customers`, headers: DEMO_KEYS, next: customerBody, amount: storedCustomers });
    const atRate = await paymentsAtRate(fresh, rate);
    return { ...closedLoop, 'POST /v1/payments p99 ms at 1,000 req/s': atRate.p99, 'POST /v1/payments p50 ms at 1,000 req/s': atRate.p50, 'generator send lag p99 ms': atRate.sendLagP99 };
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
process.stdout.write(`\nFloor (bare node:http at 1,000 req/s, once a round), p99 ms: ${spreadOf(floors)}\n`);
process.exit(0);
