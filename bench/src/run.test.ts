import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// A smoke test only: the benchmark runs end to end with tiny sizes (one unwarmed round of 200
// requests per server, no 100k-record phase; about 20 s on an idle 2-CPU machine, and about 30 s
// more with a database (three sandbox processes, pgbench for a second), most of it
// autocannon's one-second minimum per run and Prism's start). No timing is asserted; the limits are
// hang detectors, for a machine 5-20 times slower than that and busy with the rest of the test run.
// The child runs asynchronously, so vitest keeps reporting (and can time the test out) meanwhile.
const CHILD_TIMEOUT_MS = 900_000;

describe('pnpm bench', () => {
  it('runs and writes a markdown table and JSON with every figure', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'bench-')), 'latest');
    const script = fileURLToPath(new URL('./run.ts', import.meta.url));
    await run(process.execPath, ['--expose-gc', '--import', 'tsx', script, '--quick', '--out', out], { timeout: CHILD_TIMEOUT_MS });
    const json = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { cpus: number; node: string; figures: { name: string; ours: number; baseline: number | null; ratio: number | null }[] };
    expect(json.node).toBe(process.version);
    expect(json.cpus).toBeGreaterThan(0);
    const names = json.figures.map((f) => f.name);
    for (const expected of ['POST /v1/customers throughput vs Express', "POST /v1/customers throughput vs Express on the sandbox's createHttpServer", 'POST /v1/customers throughput vs Prism 5.14.2 (mock)', 'Startup: spawn to ready', 'Client overhead: ms per sequential POST /v1/customers', 'POST /v1/customers on the stack alone vs bare node:http', 'POST /v1/payments throughput vs bare node:http', 'POST /v1/payments on the stack alone vs bare node:http']) {
      expect(names).toContain(expected);
    }
    expect(names.some((n) => n.startsWith('Resident memory per stored customer'))).toBe(true);
    // The growth figures: each against the empty sandbox's, at the smoke run's one level.
    for (const figure of ['POST /v1/payments throughput', 'GET /v1/payments/{id} throughput', 'GET /sandbox/inspector/overview throughput', 'Sandbox CPU per POST /v1/payments', 'Sandbox CPU per GET /sandbox/inspector/overview', 'Sandbox CPU per POST /v1/payments at 100 req/s']) {
      expect(names).toContain(`${figure}, 200 payments and customers stored`);
    }
    // With a database (as in CI) the PostgreSQL figures run too, each beside its baseline.
    if (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL) {
      for (const expected of ['POST /v1/customers on PostgreSQL vs the memory store, one merchant', 'POST /v1/customers on PostgreSQL vs the database alone running its statements', 'POST /v1/customers, two replicas on one PostgreSQL vs one, 8 merchants', 'Sandbox CPU per POST /v1/customers on PostgreSQL vs on the memory store, one merchant, both at the same rate', 'Sandbox CPU per POST /v1/customers on PostgreSQL vs on the memory store, one merchant, each at its closed-loop rate', 'POST /v1/customers per sandbox core, two replicas on one PostgreSQL vs one, 8 merchants', 'POST /v1/customers per sandbox core, two replicas on one PostgreSQL vs one, 8 merchants, closed loop']) {
        expect(names).toContain(expected);
      }
    }
    for (const f of json.figures) {
      expect(Number.isFinite(f.ours)).toBe(true);
      // A figure measured against a baseline carries its ratio; an absolute one carries none.
      expect(f.baseline === null ? f.ratio === null : Number.isFinite(f.ratio)).toBe(true);
    }
    expect(readFileSync(`${out}.md`, 'utf8')).toContain('| Figure | Ours | Baseline | Ratio | Target | Met |');
  }, CHILD_TIMEOUT_MS + 60_000);
});
