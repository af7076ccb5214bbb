import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { clientOverhead } from './client-overhead.js';
import { placeLoadGenerator } from './cpu-placement.js';
import { useCpuPlacement } from './processes.js';
import { growthBench } from './growth.js';
import { memoryBench } from './memory.js';
import { postgresBench } from './postgres.js';
import { serverBench } from './server.js';
import { renderMarkdown, machine, writeResults, type Figure } from './report.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, out: { type: 'string' }, only: { type: 'string' }, levels: { type: 'string' } } });
const only = values.only;
const quick = values.quick ?? false;
const out = values.out ?? fileURLToPath(new URL('../results/latest', import.meta.url));

const placement = placeLoadGenerator();
useCpuPlacement(placement);
const cpuPlacement = placement.description;

/** Stops before measuring anything: a run that measured nothing must not write results or exit 0. */
function refuse(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const PARTS = ['server', 'growth', 'postgres', 'memory', 'client'];
if (only !== undefined && !PARTS.includes(only)) refuse(`--only takes one of ${PARTS.join(', ')}, not "${only}"`);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!databaseUrl) {
  if (only === 'postgres') refuse('--only postgres needs a PostgreSQL URL in BENCH_DATABASE_URL or TEST_DATABASE_URL');
  if (!only) process.stderr.write('skipping the PostgreSQL figures: no BENCH_DATABASE_URL or TEST_DATABASE_URL\n');
}
const figures: Figure[] = [];
if (!only || only === 'server') {
  figures.push(...(await serverBench(quick ? { durationSeconds: 0.3, rounds: 1, loadSize: { amount: 200 }, warmUp: false, amount: 100, fixedRate: 100, storedCustomers: 200 } : { durationSeconds: 5, rounds: 3, loadSize: { durationSeconds: 5 }, warmUp: true, amount: 5000, fixedRate: 1000, storedCustomers: 100_000 })));
}
if (!only || only === 'growth') {
  // Stored payments (and as many customers) of each level; --levels 0,20000 for a shorter look.
  const levels = values.levels?.split(',').map(Number) ?? (quick ? [0, 200] : [0, 100_000, 1_000_000]);
  if (levels.some((n) => !Number.isInteger(n) || n < 0) || levels[0] !== 0) refuse(`--levels takes counts from 0 up, separated by commas, 0 first; got "${values.levels}"`);
  const plot = fileURLToPath(new URL(`../../docs/images/benchmark-growth${quick ? '-quick' : ''}.svg`, import.meta.url));
  figures.push(
    ...(await growthBench(
      quick
        ? { levels, loadSize: { amount: 200 }, payments: 100, rounds: 1, fixedRate: 100, rateSeconds: 0.5, plot: `${out}-growth.svg` }
        : { levels, loadSize: { durationSeconds: 5 }, payments: 3000, rounds: 2, fixedRate: 1000, rateSeconds: 5, plot },
    )),
  );
}
if (databaseUrl && (!only || only === 'postgres')) {
  figures.push(...(await postgresBench(quick ? { databaseUrl, loadSize: { amount: 200 }, rounds: 1, warmUp: false } : { databaseUrl, loadSize: { durationSeconds: 5 }, rounds: 2, warmUp: true })));
}
if (!only || only === 'memory') figures.push(...(await memoryBench(quick ? 200 : 100_000, quick ? 100 : 5000)));
if (!only || only === 'client') {
  // Sequential calls: the caller and the server take turns, and neither generates load.
  placement.release();
  figures.push(...(await clientOverhead(quick ? { calls: 40, warmup: 10, block: 20 } : { calls: 4000, warmup: 500, block: 100 })));
}

const mode = quick ? 'quick (smoke)' : 'full';
writeResults(out, figures, mode, cpuPlacement);
process.stdout.write(renderMarkdown(figures, { ...machine(), date: new Date().toISOString(), mode, cpuPlacement }));
process.stdout.write(`\nwrote ${out}.md and ${out}.json\n`);
// Keep-alive sockets of the load generators must not hold the process open.
process.exit(0);
