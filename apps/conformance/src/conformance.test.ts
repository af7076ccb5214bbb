import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createSandbox, loadConfig, type Sandbox, type SandboxConfig } from '@switchyard/sandbox-server';
import { runCli } from './test-support/cli.js';
import { startFaultProxy, type Fault } from './test-support/fault-proxy.js';
import { startPrismProxy } from './test-support/prism.js';

let sandbox: Sandbox;
let url: string;
beforeAll(async () => {
  sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'silent' });
  url = await sandbox.start();
});
afterAll(() => sandbox.stop());

describe('the conformance suite against a fresh sandbox', () => {
  it('passes every check and exercises every route', async () => {
    const { code, report } = await runCli(['--base-url', url]);
    const failures = report.tests.filter((t) => t.outcome === 'fail');
    expect(failures.map((f) => `${f.operationId} › ${f.check}: ${f.message?.slice(0, 300)}`)).toEqual([]);
    expect(code).toBe(0);
    expect(report.notExercised).toEqual([]);
    expect(report.endpoints.length).toBeGreaterThanOrEqual(39);
    expect(report.totals.pass).toBeGreaterThan(300);
    for (const e of report.endpoints) expect(Object.values(e.checks)).toContain('pass');
    const skipped = report.tests.filter((t) => t.outcome === 'skip');
    for (const s of skipped) expect(s.message).toBeTruthy();
  });

  it('writes a JUnit report that CI can read', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'junit-')), 'conformance.xml');
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const code = await new Promise<number>((resolve) =>
      execFile(process.execPath, ['--import', 'tsx', cli, '--base-url', url, '--only', 'payments', '--reporter', 'junit', '--output', file], { timeout: 120_000 }, (error) =>
        resolve(error ? ((error as { code?: number }).code ?? 1) : 0),
      ),
    );
    expect(code).toBe(0);
    const xml = readFileSync(file, 'utf8');
    expect(xml.startsWith('<?xml')).toBe(true);
    const suites = /<testsuites [^>]*tests="(\d+)" failures="(\d+)"/.exec(xml);
    expect(Number(suites?.[1])).toBeGreaterThan(20);
    expect(Number(suites?.[2])).toBe(0);
    expect(xml).toMatch(/<testcase [^>]*name="[^"]*refundTransaction › positive_data_acceptance"/);
    expect((xml.match(/<testcase /g) ?? []).length).toBe(Number(suites?.[1]));
  });

  it('reports a staging run without fixtures as skipped with reasons, never passed', async () => {
    const { report } = await runCli(['--base-url', url, '--profile', 'staging', '--public-key', 'sandbox_pk_demo_switchyard', '--secret-key', 'sandbox_sk_demo_switchyard', '--account-id', '4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31', '--only', 'refundTransaction']);
    const refund = report.tests.filter((t) => t.operationId === 'refundTransaction');
    expect(refund.length).toBeGreaterThan(0);
    expect(refund.every((t) => t.outcome === 'skip')).toBe(true);
    expect(refund.find((t) => t.check === 'positive_data_acceptance')?.message).toContain('payment_id');
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl && process.env.CI) throw new Error('CI=true: TEST_DATABASE_URL must point at a PostgreSQL');

describe.skipIf(!databaseUrl)('the conformance suite against a sandbox on PostgreSQL', () => {
  it('passes every check and exercises every route', async () => {
    const schema = `sy_conf_${randomBytes(5).toString('hex')}`;
    const pgSandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'silent', databaseUrl, databaseSchema: schema });
    const pgUrl = await pgSandbox.start();
    try {
      const { code, report } = await runCli(['--base-url', pgUrl]);
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

describe('the production bundle', () => {
  it('made by pnpm deploy, runs standalone outside the workspace and passes the suite', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'sandbox-bundle-')), 'app');
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    await new Promise<void>((resolve, reject) =>
      execFile('npx', ['-y', 'pnpm@10', '--filter', '@switchyard/sandbox-server', 'deploy', '--prod', '--legacy', dir], { cwd: root, timeout: 240_000 }, (error, _out, stderr) =>
        error ? reject(new Error(`pnpm deploy failed: ${stderr}`)) : resolve(),
      ),
    );
    const child = spawn(process.execPath, [join(dir, 'dist', 'main.js'), '--port', '0', '--log-level', 'warn'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
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
      const { code, report } = await runCli(['--base-url', bundleUrl]);
      expect(report.tests.filter((t) => t.outcome === 'fail').map((t) => `${t.operationId} › ${t.check}`)).toEqual([]);
      expect(code).toBe(0);
      expect(report.notExercised).toEqual([]);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('an independent oracle', () => {
  it("finds no violation through Stoplight Prism's validation proxy in front of the sandbox", async () => {
    const openapi = fileURLToPath(new URL('../../../packages/contract/openapi.json', import.meta.url));
    const prism = await startPrismProxy(openapi, url);
    try {
      const { code, report } = await runCli(['--base-url', prism.url, '--control-url', url]);
      const failures = report.tests.filter((t) => t.outcome === 'fail');
      expect(failures.map((f) => `${f.operationId} › ${f.check}: ${f.message?.slice(0, 400)}`)).toEqual([]);
      expect(code).toBe(0);
      const oracle = report.tests.find((t) => t.operationId === 'all' && t.check === 'response_schema_conformance');
      expect(oracle?.outcome).toBe('pass');
      expect(report.notExercised).toEqual([]);
    } finally {
      await prism.stop();
    }
  });

  it('and the oracle catches a response that breaks the OpenAPI document', async () => {
    const openapi = fileURLToPath(new URL('../../../packages/contract/openapi.json', import.meta.url));
    const broken = await startFaultProxy(url, 'missing_field');
    const prism = await startPrismProxy(openapi, broken.url);
    try {
      const { report } = await runCli(['--base-url', prism.url, '--control-url', url]);
      const oracle = report.tests.find((t) => t.operationId === 'all' && t.check === 'response_schema_conformance');
      expect(oracle?.outcome).toBe('fail');
      expect(oracle?.message).toContain('created_at');
    } finally {
      await prism.stop();
      await broken.close();
    }
  });
});

describe('the runner has teeth: broken servers fail the right check', () => {
  const cases: [Fault, string, string][] = [
    ['wrong_status', 'status_code_conformance', 'createCustomer'],
    ['missing_field', 'response_schema_conformance', 'getCustomer'],
    ['wrong_enum', 'response_schema_conformance', 'createRecipient'],
    ['over_refund', 'amount_invariants', 'refundTransaction'],
    ['ignore_auth', 'ignored_auth', 'createCustomer'],
    ['ignore_idempotency', 'idempotency_replay', 'createPayment'],
  ];
  it.each(cases)('%s → %s fails on %s', async (fault, check, operationId) => {
    const proxy = await startFaultProxy(url, fault);
    try {
      const { code, report } = await runCli(['--base-url', proxy.url, '--only', operationId]);
      expect(code).toBe(1);
      const failed = report.tests.filter((t) => t.outcome === 'fail');
      expect(failed.map((t) => `${t.operationId} › ${t.check}`)).toContain(`${operationId} › ${check}`);
      const message = failed.find((t) => t.operationId === operationId)?.message ?? '';
      expect(message).toContain('reproduce: curl');
      expect(message).not.toMatch(/sandbox_sk_[A-Za-z0-9_-]{10,}/);
    } finally {
      await proxy.close();
    }
  });
});
