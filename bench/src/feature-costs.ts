/**
 * Run by hand, not by `pnpm bench`: what each per-request feature of the sandbox costs, as the
 * sandbox's CPU time per request (its threads' run time from `/proc`, which a busy machine moves
 * far less than a rate) with that feature turned off, beside the sandbox as shipped and the stack
 * floor (servers/stack-floor.ts: the required stack with nothing stored). Every round measures
 * each variant in turn, the order alternating; each figure is the median of its rounds.
 *
 *   node --import tsx src/feature-costs.ts [--rounds 5] [--customers 10000] [--payments 2000]
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { placeLoadGenerator } from './cpu-placement.js';
import { DEMO_KEYS } from './demo-api.js';
import { load, unique } from './load.js';
import { cpuSecondsOf } from './process-cpu.js';
import { spawnServer, startBaseline, useCpuPlacement, type Spawned } from './processes.js';
import { checked, customerBody, paymentBody, sessions } from './server.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, customers: { type: 'string' }, payments: { type: 'string' } } });
const rounds = Number(values.rounds ?? 5);
const customerCount = Number(values.customers ?? 10_000);
const paymentCount = Number(values.payments ?? 2_000);

const features = fileURLToPath(new URL('./servers/sandbox-features.ts', import.meta.url));
const variant = (args: string[]) => () => spawnServer(process.execPath, ['--import', 'tsx', features, ...args], /listening on (http:\/\/\S+)/, '/ready');
const variants: { name: string; start: () => Promise<Spawned>; checksSessions: boolean }[] = [
  { name: 'the sandbox as shipped', start: variant([]), checksSessions: true },
  { name: 'without the request log line', start: variant(['--log-level', 'warn']), checksSessions: true },
  { name: 'without the request journal', start: variant(['--journal-size', '0']), checksSessions: true },
  { name: 'without compaction of stored records', start: variant(['--compaction', 'off']), checksSessions: true },
  { name: 'without all three', start: variant(['--log-level', 'warn', '--journal-size', '0', '--compaction', 'off']), checksSessions: true },
  { name: 'the stack floor (nothing stored)', start: () => startBaseline('stack-floor'), checksSessions: false },
];

useCpuPlacement(placeLoadGenerator());

/** The server's CPU time per request over one closed-loop run, in microseconds. */
async function cpuPerRequest(s: Spawned, count: number, run: () => Promise<unknown>): Promise<number> {
  const pid = s.child.pid;
  if (pid === undefined) throw new Error('no pid');
  const before = cpuSecondsOf(pid);
  await run();
  return ((cpuSecondsOf(pid) - before) * 1e6) / count;
}

const customers = (s: Spawned, amount: number) => load({ url: `${s.url}/v1/customers`, headers: DEMO_KEYS, next: customerBody, amount }).then((r) => checked('customers', r));
async function payments(s: Spawned, amount: number, checksSessions: boolean) {
  const paid = checksSessions ? await sessions(s.url, amount) : Array.from({ length: amount }, () => randomUUID());
  let p = 0;
  return () => load({ url: `${s.url}/v1/payments`, headers: DEMO_KEYS, amount, next: () => ({ body: JSON.stringify(paymentBody(paid[p++] as string)), headers: { 'x-idempotency-key': unique('pay') } }) }).then((r) => checked('payments', r));
}

const started = await Promise.all(variants.map(async (v) => ({ ...v, server: await v.start(), customers: [] as number[], payments: [] as number[] })));
try {
  for (const v of started) {
    await customers(v.server, customerCount);
    await (await payments(v.server, paymentCount, v.checksSessions))();
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const v of round % 2 === 0 ? started : [...started].reverse()) {
      v.customers.push(await cpuPerRequest(v.server, customerCount, () => customers(v.server, customerCount)));
      const run = await payments(v.server, paymentCount, v.checksSessions);
      v.payments.push(await cpuPerRequest(v.server, paymentCount, run));
    }
  }
} finally {
  await Promise.all(started.map((v) => v.server.stop()));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const shipped = started[0];
if (!shipped) throw new Error('no variants');
const cell = (xs: number[], base: number[]) => `${Math.round(median(xs))} µs (${(median(xs) / median(base)).toFixed(2)}×; ${xs.map(Math.round).join(' / ')})`;
process.stdout.write(`| Variant | CPU per POST /v1/customers | CPU per POST /v1/payments |\n|---|---|---|\n`);
for (const v of started) process.stdout.write(`| ${v.name} | ${cell(v.customers, shipped.customers)} | ${cell(v.payments, shipped.payments)} |\n`);
