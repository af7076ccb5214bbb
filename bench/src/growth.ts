import { writeFileSync } from 'node:fs';
import { DEMO_KEYS, paymentBody, post, sessions } from './demo-api.js';
import { load, type LoadResult } from './load.js';
import { checked, customerBody, paymentsAtRate } from './server.js';
import { cpuSecondsOf } from './process-cpu.js';
import { startBenchServer, type Spawned } from './processes.js';
import type { Figure } from './report.js';
import { lineChart } from './svg-chart.js';

export interface GrowthOptions {
  /** Stored payments (and as many customers) of each level; the first is the baseline, normally 0. */
  levels: number[];
  loadSize: { durationSeconds: number } | { amount: number };
  /** Requests of the closed-loop payment runs (each needs a checkout session made first). */
  payments: number;
  rounds: number;
  fixedRate: number;
  rateSeconds: number;
  /** Where the plot goes (an SVG). */
  plot: string;
}

interface Memory {
  rss: number;
  heap: number;
}

/**
 * V8's heap limit of every level's process, the empty one's too: a million payments and
 * customers take about 3 GB of live heap, past the 85 % of the default limit (about 4 GB here)
 * at which the memory ceiling refuses new records (docs/sandbox.md, "Memory ceiling").
 */
const HEAP_MB = 8192;

/** A sandbox as shipped whose demo merchant holds `n` payments and `n` customers (servers/sandbox-seeded.ts). */
function seeded(n: number): Promise<Spawned> {
  return startBenchServer('sandbox-seeded', ['--payments', String(n), '--customers', String(n)], { nodeFlags: ['--expose-gc', `--max-old-space-size=${HEAP_MB}`], timeoutMs: 3_600_000, ipc: true });
}

function measure(s: Spawned): Promise<Memory> {
  return new Promise((resolve) => {
    s.child.once('message', (m) => resolve(m as Memory));
    s.child.send('measure');
  });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Each figure of the payment path on sandboxes holding 0, 100,000 and 1,000,000 payments and as
 * many customers, in one process each, all started before any is measured; the levels take
 * turns within each round, so a slow moment of the machine falls on all of them. Every figure
 * is reported as a ratio to the empty sandbox's, and plotted.
 */
export async function growthBench(o: GrowthOptions): Promise<Figure[]> {
  const servers: Spawned[] = [];
  const figures: Figure[] = [];
  try {
    for (const level of o.levels) {
      const started = performance.now();
      servers.push(await seeded(level));
      process.stderr.write(`growth: sandbox with ${level} payments and customers ready in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    }
    const memory = await Promise.all(servers.map(measure));
    // One payment of each level to read back, made through the API.
    const readable = await Promise.all(
      servers.map(async (s) => {
        const [session] = await sessions(s.url, 1);
        return (await post<{ id: string }>(s.url, '/v1/payments', paymentBody(session as string), { 'x-idempotency-key': `growth-read-${s.child.pid}` })).id;
      }),
    );
    // Throughput and p99 carry the targets. The sandbox's CPU per request is reported beside them:
    // on a loaded machine it moves far less than a rate does, so it shows what grew.
    const rows: { name: string; unit: string; higherIsBetter: boolean; target: boolean; values: number[][] }[] = [
      { name: 'POST /v1/payments throughput', unit: 'req/s', higherIsBetter: true, target: true, values: servers.map(() => []) },
      { name: `POST /v1/payments p99 at ${o.fixedRate} req/s`, unit: 'ms', higherIsBetter: false, target: true, values: servers.map(() => []) },
      { name: 'GET /v1/payments/{id} throughput', unit: 'req/s', higherIsBetter: true, target: true, values: servers.map(() => []) },
      { name: 'GET /sandbox/inspector/overview throughput', unit: 'req/s', higherIsBetter: true, target: true, values: servers.map(() => []) },
      { name: 'POST /v1/customers throughput', unit: 'req/s', higherIsBetter: true, target: true, values: servers.map(() => []) },
      { name: 'Sandbox CPU per POST /v1/payments', unit: 'µs', higherIsBetter: false, target: false, values: servers.map(() => []) },
      { name: 'Sandbox CPU per GET /v1/payments/{id}', unit: 'µs', higherIsBetter: false, target: false, values: servers.map(() => []) },
      { name: 'Sandbox CPU per GET /sandbox/inspector/overview', unit: 'µs', higherIsBetter: false, target: false, values: servers.map(() => []) },
      { name: 'Sandbox CPU per POST /v1/customers', unit: 'µs', higherIsBetter: false, target: false, values: servers.map(() => []) },
      { name: `Sandbox CPU per POST /v1/payments at ${o.fixedRate} req/s`, unit: 'µs', higherIsBetter: false, target: false, values: servers.map(() => []) },
    ];
    /** A closed-loop run, and the sandbox's CPU time per request it answered (µs, read from /proc). */
    const measured = async (s: Spawned, run: () => Promise<LoadResult>): Promise<{ result: LoadResult; cpu: number }> => {
      const before = cpuSecondsOf(s.child.pid as number);
      const result = await run();
      return { result, cpu: ((cpuSecondsOf(s.child.pid as number) - before) * 1e6) / Math.max(1, result.total) };
    };
    const warm = (s: Spawned) => load({ url: `${s.url}/v1/customers`, headers: DEMO_KEYS, next: customerBody, ...o.loadSize });
    for (const s of servers) await warm(s);
    for (let round = 0; round < o.rounds; round += 1) {
      for (const [k, s] of servers.entries()) {
        const paySessions = await sessions(s.url, o.payments);
        let p = 0;
        const pay = await measured(s, async () => checked('growth payments', await load({ url: `${s.url}/v1/payments`, headers: DEMO_KEYS, amount: o.payments, next: () => ({ body: JSON.stringify(paymentBody(paySessions[p++] as string)), headers: { 'x-idempotency-key': `growth-${s.child.pid}-${round}-${p}` } }) })));
        rows[0]?.values[k]?.push(pay.result.rps);
        rows[5]?.values[k]?.push(pay.cpu);
        // CPU per request at one rate for every level: a closed loop's falls as its rate rises
        // (an event loop woken for several sockets at once shares the wake-up), so a level
        // served more slowly reads dearer there for that reason alone.
        const atRate = await paymentsAtRate(s, { fixedRate: o.fixedRate, durationSeconds: o.rateSeconds }, async (run, requests) => {
          const before = cpuSecondsOf(s.child.pid as number);
          const result = await run();
          rows[9]?.values[k]?.push(((cpuSecondsOf(s.child.pid as number) - before) * 1e6) / requests);
          return result;
        });
        rows[1]?.values[k]?.push(atRate.p99);
        const get = await measured(s, async () => checked('growth retrieve', await load({ url: `${s.url}/v1/payments/${readable[k]}`, method: 'GET', headers: DEMO_KEYS, ...o.loadSize })));
        rows[2]?.values[k]?.push(get.result.rps);
        rows[6]?.values[k]?.push(get.cpu);
        const overview = await measured(s, async () => checked('growth overview', await load({ url: `${s.url}/sandbox/inspector/overview`, method: 'GET', headers: DEMO_KEYS, ...o.loadSize })));
        rows[3]?.values[k]?.push(overview.result.rps);
        rows[7]?.values[k]?.push(overview.cpu);
        const customers = await measured(s, async () => checked('growth customers', await load({ url: `${s.url}/v1/customers`, headers: DEMO_KEYS, next: customerBody, ...o.loadSize })));
        rows[4]?.values[k]?.push(customers.result.rps);
        rows[8]?.values[k]?.push(customers.cpu);
      }
    }
    const base = o.levels[0] as number;
    for (const row of rows) {
      const means = row.values.map(mean);
      const empty = means[0] as number;
      for (const [k, level] of o.levels.entries()) {
        if (k === 0) continue;
        const ours = means[k] as number;
        const ratio = ours / empty;
        const target = !row.target ? 'report' : row.higherIsBetter ? '≥ 0.9×' : '≤ 1.3×';
        const met = !row.target ? null : row.higherIsBetter ? ratio >= 0.9 : ratio <= 1.3;
        figures.push({
          name: `${row.name}, ${level.toLocaleString('en')} payments and customers stored`,
          ours,
          baseline: empty,
          baselineName: `the same figure of a sandbox holding ${base} (rounds: ${row.values[k]?.map((v) => v.toFixed(1)).join(' / ')} against ${row.values[0]?.map((v) => v.toFixed(1)).join(' / ')})`,
          unit: row.unit,
          ratio,
          target,
          met,
        });
      }
    }
    // Resident memory per stored record: each level against the empty sandbox, after full collections.
    const m0 = memory[0] as Memory;
    for (const [k, level] of o.levels.entries()) {
      if (k === 0 || level === 0) continue;
      const m = memory[k] as Memory;
      const perPair = (m.rss - m0.rss) / level;
      figures.push({ name: `Resident memory per stored payment and customer together, ${level.toLocaleString('en')} of each (right after seeding, after full collections)`, ours: perPair, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: '≤ 5120 bytes (4 KB + 1 KB)', met: perPair <= 5120 });
      figures.push({ name: `Live heap per stored payment and customer together, ${level.toLocaleString('en')} of each`, ours: (m.heap - m0.heap) / level, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: 'report', met: null });
    }
    writeFileSync(
      o.plot,
      lineChart({
        title: 'Cost as stored data grows (each figure ÷ the empty sandbox\'s; 1 = flat)',
        xLabel: 'payments and customers stored (each)',
        xs: o.levels,
        series: rows.map((row) => {
          const means = row.values.map(mean);
          const empty = means[0] as number;
          return { name: `${row.name}${row.higherIsBetter ? '' : ' (lower is better)'}`, ys: means.map((v) => v / empty) };
        }),
      }),
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  return figures;
}
