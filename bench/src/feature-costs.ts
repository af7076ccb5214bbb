/**
 * Run by hand, not by `pnpm bench`: what each per-request feature of the sandbox costs, as the
 * sandbox's CPU time per request (its threads' run time from `/proc`, which a busy machine moves
 * far less than a rate, read once the process has gone idle so that deferred work counts) with
 * that feature turned off, beside the sandbox with every feature on and the stack floor
 * (servers/stack-floor.ts: the required stack with nothing stored), with and without its log line.
 * Every round measures each variant in turn, the order alternating; each figure is the median of
 * its rounds.
 *
 *   node --import tsx src/feature-costs.ts [--rounds 5] [--customers 10000] [--payments 2000]
 */
import { parseArgs } from 'node:util';
import { placeLoadGenerator } from './cpu-placement.js';
import { cpuSecondsOf } from './process-cpu.js';
import { startBenchServer, useCpuPlacement, type Spawned } from './processes.js';
import { checked, customers, paymentTargets, payments } from './server.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, customers: { type: 'string' }, payments: { type: 'string' } } });
const rounds = Number(values.rounds ?? 5);
const customerCount = Number(values.customers ?? 10_000);
const paymentCount = Number(values.payments ?? 2_000);

const server = (file: string, args: string[]) => () => startBenchServer(file, args);
const variants: { name: string; start: () => Promise<Spawned>; checksSessions: boolean }[] = [
  { name: 'the sandbox, every feature on (the package under tsx)', start: server('sandbox-features', []), checksSessions: true },
  { name: 'without the request log line', start: server('sandbox-features', ['--log-level', 'warn']), checksSessions: true },
  { name: 'without the request journal', start: server('sandbox-features', ['--journal-size', '0']), checksSessions: true },
  { name: 'without compaction of stored records', start: server('sandbox-features', ['--compaction', 'off']), checksSessions: true },
  { name: 'without all three', start: server('sandbox-features', ['--log-level', 'warn', '--journal-size', '0', '--compaction', 'off']), checksSessions: true },
  { name: 'the stack floor (nothing stored)', start: server('stack-floor', []), checksSessions: false },
  { name: 'the stack floor without its log line', start: server('stack-floor', ['--log-level', 'warn']), checksSessions: false },
];

useCpuPlacement(placeLoadGenerator());

/** The process's CPU seconds once it has gone idle: what it defers past a response (compaction, the log's batch) counts for the requests that caused it. */
async function settledCpu(pid: number): Promise<number> {
  let last = cpuSecondsOf(pid);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuSecondsOf(pid);
    if (now - last < 0.002) return now;
    last = now;
  }
}

/** The server's CPU time per request over one closed-loop run and what it deferred, in microseconds. */
async function cpuPerRequest(s: Spawned, count: number, run: () => Promise<unknown>): Promise<number> {
  const pid = s.child.pid;
  if (pid === undefined) throw new Error('no pid');
  const before = await settledCpu(pid);
  await run();
  return (((await settledCpu(pid)) - before) * 1e6) / count;
}

const measured: { name: string; server: Spawned; checksSessions: boolean; customers: number[]; payments: number[] }[] = [];
try {
  for (const v of variants) measured.push({ name: v.name, server: await v.start(), checksSessions: v.checksSessions, customers: [], payments: [] });
  for (const v of measured) {
    await customers(v.server, { amount: customerCount });
    await payments(v.server, await paymentTargets(v.server, paymentCount, v.checksSessions), 'payments warm-up');
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const v of round % 2 === 0 ? measured : [...measured].reverse()) {
      v.customers.push(await cpuPerRequest(v.server, customerCount, async () => checked('customers', await customers(v.server, { amount: customerCount }))));
      const targets = await paymentTargets(v.server, paymentCount, v.checksSessions);
      v.payments.push(await cpuPerRequest(v.server, paymentCount, () => payments(v.server, targets, 'payments')));
    }
  }
} finally {
  await Promise.all(measured.map((v) => v.server.stop()));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const all = measured[0];
if (!all) throw new Error('no variants');
const cell = (xs: number[], base: number[]) => `${Math.round(median(xs))} µs (${(median(xs) / median(base)).toFixed(2)}×; ${xs.map(Math.round).join(' / ')})`;
process.stdout.write(`| Variant | CPU per POST /v1/customers | CPU per POST /v1/payments |\n|---|---|---|\n`);
for (const v of measured) process.stdout.write(`| ${v.name} | ${cell(v.customers, all.customers)} | ${cell(v.payments, all.payments)} |\n`);
