import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { contract, listRoutes } from '@switchyard/contract';
import { deployPackage } from '@switchyard/tooling/deploy';
import { removeScratchDirs, scratchDir } from '@switchyard/tooling/scratch';
import { checksOf, controlApiCases, operationCases } from './harness/cases.js';
import { LATENCY_NOT_JUDGED, runCli, spawnCli } from './test-support/cli.js';
import { startFaultProxy } from './test-support/fault-proxy.js';
import { startPrismProxy } from './test-support/prism.js';
import { startSandbox, useSandbox } from './test-support/sandbox.js';
import { startWrongAnswerServer, WRONG_ANSWER } from './test-support/wrong-answers.js';

const sandbox = useSandbox();

describe('the conformance suite against a fresh sandbox', () => {
  it('passes every check and exercises every route', async () => {
    const { code, report } = await runCli(['--base-url', sandbox.url(), ...LATENCY_NOT_JUDGED]);
    const failures = report.tests.filter((t) => t.outcome === 'fail');
    expect(failures.map((f) => `${f.operationId} › ${f.check}: ${f.message?.slice(0, 300)}`)).toEqual([]);
    expect(code).toBe(0);
    expect(report.notExercised).toEqual([]);
    expect(report.endpoints.length).toBeGreaterThanOrEqual(39);
    expect(report.totals.pass).toBeGreaterThan(300);
    for (const e of report.endpoints) expect(Object.values(e.checks)).toContain('pass');
    const skipped = report.tests.filter((t) => t.outcome === 'skip');
    for (const s of skipped) expect(s.message).toBeTruthy();
    expect(report.excluded).toEqual([]);
    // The runner counts the checks of routes a run leaves out with checksOf: it must be what the suite registers.
    for (const c of operationCases(true)) {
      const registered = report.tests.filter((t) => t.operationId === c.meta.operationId && t.detail === null).map((t) => t.check);
      expect(registered, c.meta.operationId).toEqual(checksOf(c));
    }
  });

  it('writes a JUnit report that CI can read', async () => {
    const file = join(scratchDir('junit-'), 'conformance.xml');
    const { code } = await spawnCli(['--base-url', sandbox.url(), '--only', 'payments', '--reporter', 'junit', '--output', file]);
    expect(code).toBe(0);
    const xml = readFileSync(file, 'utf8');
    expect(xml.startsWith('<?xml')).toBe(true);
    const suites = /<testsuites [^>]*tests="(\d+)" failures="(\d+)"/.exec(xml);
    expect(Number(suites?.[1])).toBeGreaterThan(20);
    expect(Number(suites?.[2])).toBe(0);
    expect(xml).toMatch(/<testcase [^>]*name="[^"]*refundTransaction › positive_data_acceptance"/);
    expect((xml.match(/<testcase /g) ?? []).length).toBe(Number(suites?.[1]));
  });

  it('reports a staging run whose checks all need the control API as skipped with reasons, never passed, and exits 2: no check ran', async () => {
    // A retry needs a subscription whose payment declined: the control API scripts it, a staging names one in its fixtures.
    const { code, stderr, report } = await runCli(['--base-url', sandbox.url(), '--profile', 'staging', '--public-key', 'sandbox_pk_demo_switchyard', '--secret-key', 'sandbox_sk_demo_switchyard', '--account-id', '4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31', '--only', 'retrySubscriptionPayment']);
    const retry = report.tests.filter((t) => t.operationId === 'retrySubscriptionPayment');
    expect(retry.length).toBeGreaterThan(0);
    expect(retry.every((t) => t.outcome === 'skip')).toBe(true);
    expect(retry.find((t) => t.check === 'positive_data_acceptance')?.message).toContain('declined_subscription_id');
    expect(retry.find((t) => t.check === 'not_a_server_error')?.message).toContain('no response of this route was recorded: needs the fixture "declined_subscription_id"');
    for (const t of report.tests) expect(t.message, `${t.operationId} › ${t.check}`).toBeTruthy();
    expect(code).toBe(2);
    expect(stderr).toBe(
      `switchyard-conformance: no check ran: every check (${report.tests.length}) was skipped, e.g. retrySubscriptionPayment › positive_data_acceptance: needs the fixture "declined_subscription_id" (pass --fixtures with it) on a server without the /sandbox control API\n`,
    );
    // What the run left out is named, not silently dropped from the totals.
    const controlApi = controlApiCases();
    expect(report.excluded).toEqual([
      { checks: controlApi.reduce((n, c) => n + checksOf(c).length, 0), what: `on the ${controlApi.length} routes of the /sandbox control API`, why: 'the staging profile does not use the /sandbox control API' },
      { checks: expect.any(Number), what: 'outside the selection', why: '--only retrySubscriptionPayment' },
    ]);
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl && process.env.CI) throw new Error('CI=true: TEST_DATABASE_URL must point at a PostgreSQL');
if (!databaseUrl) console.warn('conformance.test.ts: TEST_DATABASE_URL is not set, so the run against a sandbox on PostgreSQL is skipped (CI=true requires it)');

describe.skipIf(!databaseUrl)('the conformance suite against a sandbox on PostgreSQL', () => {
  it('passes every check and exercises every route', async () => {
    const schema = `sy_conf_${randomBytes(5).toString('hex')}`;
    const pgSandbox = await startSandbox({ databaseUrl: databaseUrl as string, databaseSchema: schema });
    const pgUrl = pgSandbox.url;
    try {
      const { code, report } = await runCli(['--base-url', pgUrl, ...LATENCY_NOT_JUDGED]);
      const failures = report.tests.filter((t) => t.outcome === 'fail');
      expect(failures.map((f) => `${f.operationId} › ${f.check}: ${f.message?.slice(0, 300)}`)).toEqual([]);
      expect(code).toBe(0);
      expect(report.notExercised).toEqual([]);
    } finally {
      await pgSandbox.stop();
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});

// The deployed bundles, the launcher's directory and the JUnit reports of this file's tests.
afterAll(removeScratchDirs);

/** A workspace package deployed into a directory of its own, outside the workspace. */
const deploy = (name: string) => deployPackage(name, join(scratchDir('bundle-'), 'app'));

describe('the production bundles', () => {
  it('made by pnpm deploy, run standalone outside the workspace with plain node, and the suite passes', { timeout: 480_000 }, async () => {
    const [sandboxDir, conformanceDir] = await Promise.all([deploy('@switchyard/sandbox-server'), deploy('@switchyard/conformance')]);
    const env = { PATH: process.env.PATH ?? '' };
    const child = spawn(process.execPath, [join(sandboxDir, 'dist', 'main.js'), '--port', '0', '--log-level', 'warn'], { cwd: sandboxDir, stdio: ['ignore', 'pipe', 'pipe'], env });
    try {
      const bundleUrl = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += String(d);
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`the bundle exited ${code}: ${out}`)));
      });
      // The deployed launcher, from a directory that is neither the workspace nor the bundle: no tsx, no sources.
      const elsewhere = scratchDir('elsewhere-');
      const { code, report, stderr } = await runCli(['--base-url', bundleUrl, ...LATENCY_NOT_JUDGED], { bin: join(conformanceDir, 'bin', 'switchyard-conformance.js'), cwd: elsewhere, onlyEnv: env });
      expect(stderr).toBe('');
      expect(report.tests.filter((t) => t.outcome === 'fail').map((t) => `${t.operationId} › ${t.check}`)).toEqual([]);
      expect(code).toBe(0);
      expect(report.notExercised).toEqual([]);
      expect(report.totals.pass).toBeGreaterThan(300);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

/**
 * Prism validates every request it forwards, which makes it slow and makes it stall on some
 * malformed bodies: the runs through it send no invalid body (the direct run sends them all) and
 * judge no latency (what they would measure is Prism's).
 */
const THROUGH_PRISM = ['--max-negative', '0', ...LATENCY_NOT_JUDGED];

describe('an independent oracle', () => {
  it("finds no violation through Stoplight Prism's validation proxy in front of the sandbox", async () => {
    const openapi = fileURLToPath(new URL('../../../packages/contract/openapi.json', import.meta.url));
    const prism = await startPrismProxy(openapi, sandbox.url());
    try {
      const { code, report, stdout } = await runCli(['--base-url', prism.url, '--control-url', sandbox.url(), ...THROUGH_PRISM]);
      const failures = report.tests.filter((t) => t.outcome === 'fail');
      expect(failures.map((f) => `${f.operationId} › ${f.check}: ${f.message?.slice(0, 400)}`)).toEqual([]);
      expect(code).toBe(0);
      const oracle = report.tests.find((t) => t.operationId === 'all' && t.check === 'proxy_schema_validation');
      expect(oracle?.outcome).toBe('pass');
      expect(report.notExercised).toEqual([]);
      // The control API goes around Prism, so its routes are not the server under test's: named, not silently dropped.
      const controlApi = controlApiCases();
      const checks = controlApi.reduce((n, c) => n + checksOf(c).length, 0);
      const why = `the control API answers at --control-url ${sandbox.url()}, not at the server under test`;
      expect(report.excluded).toEqual([{ checks, what: `on the ${controlApi.length} routes of the /sandbox control API`, why }]);
      expect(stdout).toContain(`not counted: ${checks} checks on the ${controlApi.length} routes of the /sandbox control API: ${why}\n`);
    } finally {
      await prism.stop();
    }
  });

  it('and Prism flags a wrong answer on every operation of the OpenAPI document', async () => {
    const openapi = fileURLToPath(new URL('../../../packages/contract/openapi.json', import.meta.url));
    const document = JSON.parse(readFileSync(openapi, 'utf8')) as { paths: Record<string, Record<string, { operationId: string; requestBody?: unknown }>> };
    const wrong = await startWrongAnswerServer();
    const prism = await startPrismProxy(openapi, wrong.url);
    const unflagged: string[] = [];
    let sent = 0;
    try {
      for (const [path, methods] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          // Any id will do: the answer is what is judged, and Prism forwards a request it finds invalid too.
          const url = `${prism.url}${path.replace(/\{\w+\}/g, '0f0e0d0c-0b0a-4909-8807-060504030201')}`;
          const res = await fetch(url, {
            method: method.toUpperCase(),
            headers: { 'content-type': 'application/json', 'public-api-key': 'pk', 'private-secret-key': 'sk', 'x-idempotency-key': randomBytes(16).toString('hex') },
            body: operation.requestBody ? '{}' : undefined,
          });
          sent += 1;
          expect(await res.json(), operation.operationId).toEqual(WRONG_ANSWER);
          const violations = JSON.parse(res.headers.get('sl-violations') ?? '[]') as { location?: string[]; severity?: string }[];
          if (!violations.some((v) => v.location?.[0] === 'response' && v.severity === 'Error')) unflagged.push(operation.operationId);
        }
      }
    } finally {
      await prism.stop();
      await wrong.close();
    }
    expect(sent).toBe(listRoutes(contract).length);
    expect(unflagged).toEqual([]);
  });

  it('and the oracle catches a response that breaks the OpenAPI document', async () => {
    const openapi = fileURLToPath(new URL('../../../packages/contract/openapi.json', import.meta.url));
    const broken = await startFaultProxy(sandbox.url(), 'missing_field');
    const prism = await startPrismProxy(openapi, broken.url);
    try {
      const { report } = await runCli(['--base-url', prism.url, '--control-url', sandbox.url(), ...THROUGH_PRISM]);
      const oracle = report.tests.find((t) => t.operationId === 'all' && t.check === 'proxy_schema_validation');
      expect(oracle?.outcome).toBe('fail');
      expect(oracle?.message).toContain('created_at');
    } finally {
      await prism.stop();
      await broken.close();
    }
  });
});
