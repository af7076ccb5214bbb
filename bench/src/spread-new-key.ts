/**
 * Run by hand, not by `pnpm bench`: what `{ ...source, newKey }` (a spread followed by a key the
 * source lacks) costs against the forms that avoid it, on the Node that runs this script, for the
 * objects the sandbox builds that way (docs/benchmarks.md, "Spread, then a new key").
 *
 *   node --import tsx src/spread-new-key.ts [--rounds 5] [--objects 400000]
 *
 * Each case and form runs in a fresh process of the same Node, in turn, every round. A run
 * builds `objects` objects that die young (a ring of 64 keeps the last few alive, as a request
 * keeps its own), after a warm-up as long, and reads every collection in between with V8's
 * GCProfiler. The figures are per object, except the scavenge pauses, which are per 400,000.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GCProfiler, getHeapStatistics, type GCProfilerResult } from 'node:v8';

type Form = 'spread' | 'avoided';
type Build = (i: number) => object;

const INPUTS = 1024;
const at = <T>(list: T[], i: number) => list[i % INPUTS] as T;

// Inputs shaped as the sandbox's: a payment's method, a masked card, an idempotency record as the
// store returns it (parsed from its JSON), an operation's stored response.
const methods = Array.from({ length: INPUTS }, (_, i) => ({ vaulted_token: null, type: 'CARD', vault_on_success: i % 2 === 0, token: `tok_${i}`, card: { iin: '41111111', lfd: String(1000 + i) } }));
const numbers = Array.from({ length: INPUTS }, (_, i) => `4111111111${String(100_000 + i)}`);
const records = Array.from({ length: INPUTS }, (_, i) => JSON.stringify({ key: `key-${i}`, operation_id: 'createPayment', state: 'in_progress', response: null, created_at_ms: 1_700_000_000_000 + i }));
const responses = Array.from({ length: INPUTS }, (_, i) => ({ status: 201, body: { id: `pay_${i}`, status: 'SUCCEEDED' } }));

const methodOf = (m: (typeof methods)[number]) => ({ vaulted_token: m.vaulted_token, type: m.type, vault_on_success: m.vault_on_success, token: m.token, parent_payment_method_type: null });
const maskCard = (n: string) => ({ iin: n.slice(0, 8), lfd: n.slice(-4), number_length: n.length, brand: 'VISA', fingerprint: n.slice(4, 12) });

/** Each case as `spread` (the plain form) and `avoided` (the form the workaround uses). */
const cases: Record<string, Record<Form, Build>> = {
  'payment method view (payment-view.ts)': {
    spread: (i) => ({ ...methodOf(at(methods, i)), detail: { card: at(methods, i).card } }),
    avoided: (i) => Object.assign(methodOf(at(methods, i)), { detail: { card: at(methods, i).card } }),
  },
  'stored card (card-input.ts)': {
    spread: (i) => ({ ...maskCard(at(numbers, i)), security_code_length: 3, holder_name: null, expiration_month: 1 + (i % 12), expiration_year: 2030, three_d_secure: 'none' }),
    avoided: (i) => Object.assign(maskCard(at(numbers, i)), { security_code_length: 3, holder_name: null, expiration_month: 1 + (i % 12), expiration_year: 2030, three_d_secure: 'none' }),
  },
  'idempotency record, changes saved (idempotency.ts)': {
    spread: (i) => ({ ...(JSON.parse(at(records, i)) as object), changes_saved: true }),
    avoided: (i) => Object.assign(JSON.parse(at(records, i)) as object, { changes_saved: true }),
  },
  'idempotent result (idempotency.ts)': {
    spread: (i) => ({ ...at(responses, i), replayed: false }),
    avoided: (i) => ({ status: at(responses, i).status, body: at(responses, i).body, replayed: false }),
  },
};

interface Run {
  nsPerObject: number;
  allocatedBytes: number;
  survivedBytes: number;
  scavengeMsPer400k: number;
  markCompacts: number;
  /** Distinct hidden classes among 1,000 consecutive objects (V8's own check). */
  mapsPer1000: number;
}

const used = (s: GCProfilerResult['statistics'][number]['beforeGC']) => s.heapStatistics.usedHeapSize;
const newSpace = (s: GCProfilerResult['statistics'][number]['beforeGC']) => s.heapSpaceStatistics.find((x) => x.spaceName === 'new_space')?.spaceUsedSize ?? 0;

function measure(build: Build, objects: number): Run {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const ring: object[] = new Array<object>(64);
  for (let i = 0; i < objects; i += 1) ring[i & 63] = build(i);

  // Needs --allow-natives-syntax, which only this child process gets.
  const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
  let maps = 1;
  let previous = build(0);
  for (let i = 1; i < 1000; i += 1) {
    const next = build(i);
    if (!haveSameMap(previous, next)) maps += 1;
    previous = next;
  }

  gc();
  let usedAfterPrevious = getHeapStatistics().used_heap_size;
  const profiler = new GCProfiler();
  profiler.start();
  const start = process.hrtime.bigint();
  for (let i = 0; i < objects; i += 1) ring[i & 63] = build(i);
  const elapsedNs = Number(process.hrtime.bigint() - start);
  ring.fill(ring[0] as object);
  gc();
  const { statistics } = profiler.stop();

  let allocated = 0;
  let survived = 0;
  let scavengeUs = 0;
  let markCompacts = 0;
  for (const [k, s] of statistics.entries()) {
    allocated += used(s.beforeGC) - usedAfterPrevious;
    usedAfterPrevious = used(s.afterGC);
    if (s.gcType === 'Scavenge') {
      // What the scavenge kept of the young objects: copied within new space or promoted.
      survived += used(s.afterGC) - (used(s.beforeGC) - newSpace(s.beforeGC));
      scavengeUs += s.cost;
    } else if (k < statistics.length - 1) markCompacts += 1; // the last is the forced one

  }
  return {
    nsPerObject: elapsedNs / objects,
    allocatedBytes: allocated / objects,
    survivedBytes: survived / objects,
    scavengeMsPer400k: (scavengeUs / 1000) * (400_000 / objects),
    markCompacts,
    mapsPer1000: maps,
  };
}

const { values } = parseArgs({ options: { rounds: { type: 'string' }, objects: { type: 'string' }, child: { type: 'string' }, form: { type: 'string' } } });
const objects = Number(values.objects ?? 400_000);

if (values.child !== undefined) {
  const build = cases[values.child]?.[values.form as Form];
  if (!build) throw new Error(`unknown case ${values.child} / ${values.form}`);
  process.stdout.write(JSON.stringify(measure(build, objects)));
} else {
  const rounds = Number(values.rounds ?? 5);
  const runs = new Map<string, Run[]>();
  for (let round = 0; round < rounds; round += 1) {
    for (const name of Object.keys(cases)) {
      // Alternate which form goes first, so a drift of the machine does not favour one.
      const forms: Form[] = round % 2 === 0 ? ['spread', 'avoided'] : ['avoided', 'spread'];
      for (const form of forms) {
        const child = spawnSync(process.execPath, ['--expose-gc', '--allow-natives-syntax', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', name, '--form', form, '--objects', String(objects)], { encoding: 'utf8' });
        if (child.status !== 0) throw new Error(`${name} / ${form} failed:\n${child.stderr}`);
        const key = `${name}\t${form}`;
        runs.set(key, [...(runs.get(key) ?? []), JSON.parse(child.stdout) as Run]);
      }
    }
  }
  const spreadOf = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2));
    return `${fmt(sorted[0] ?? 0)} / ${fmt(sorted[Math.floor(sorted.length / 2)] ?? 0)} / ${fmt(sorted[sorted.length - 1] ?? 0)}`;
  };
  process.stdout.write(`Node ${process.version} (V8 ${process.versions.v8}), ${rounds} rounds of ${objects} objects; min / median / max\n\n`);
  process.stdout.write('| Case | Form | ns per object | bytes allocated per object | bytes surviving a scavenge per object | scavenge pauses, ms per 400,000 | mark-compacts | maps per 1,000 objects |\n|---|---|---|---|---|---|---|---|\n');
  for (const [key, list] of runs) {
    const [name, form] = key.split('\t');
    const col = (f: (r: Run) => number) => spreadOf(list.map(f));
    process.stdout.write(`| ${name} | ${form} | ${col((r) => r.nsPerObject)} | ${col((r) => r.allocatedBytes)} | ${col((r) => r.survivedBytes)} | ${col((r) => r.scavengeMsPer400k)} | ${col((r) => r.markCompacts)} | ${col((r) => r.mapsPer1000)} |\n`);
  }
}
