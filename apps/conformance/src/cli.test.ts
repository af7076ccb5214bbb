import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@switchyard/client';
import { fixtures as examples } from '@switchyard/contract/fixtures';
import { createSandbox, loadConfig, type Sandbox, type SandboxConfig } from '@switchyard/sandbox-server';
import { removeScratchDirs, scratchDir } from '@switchyard/tooling/scratch';
import { callerPath } from './cli.js';
import type { ConformanceReport } from './report.js';
import { spawnCli } from './test-support/cli.js';

/** Exit 2 and exactly one line on stderr: the run proves nothing, and says why. */
const provesNothing = (message: string) => ({ code: 2, stderr: `switchyard-conformance: ${message}\n` });

const listen = (server: Server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

/** A port nothing listens on (just released by us). */
async function deadUrl(): Promise<string> {
  const server = createServer();
  const url = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return url;
}

let sandbox: Sandbox;
let url: string;
let dir: string;
beforeAll(async () => {
  sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'silent' });
  url = await sandbox.start();
  dir = scratchDir('conformance-cli-');
});
afterAll(() => sandbox.stop());
afterAll(removeScratchDirs);

const STAGING = ['--profile', 'staging', '--public-key', 'pk', '--secret-key', 'sk', '--account-id', '4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31'];

describe('relative paths are the caller’s', () => {
  it('resolve against INIT_CWD (set by pnpm, which runs scripts in the package directory), else the working directory', () => {
    expect(callerPath('f.json', { INIT_CWD: '/home/me/project' })).toBe('/home/me/project/f.json');
    expect(callerPath('f.json', {})).toBe(join(process.cwd(), 'f.json'));
    expect(callerPath('/abs/f.json', { INIT_CWD: '/home/me/project' })).toBe('/abs/f.json');
  });
});

describe('honest exits: a run that proves nothing exits 2 with one line saying why', () => {
  it('a base URL that does not answer is probed before anything runs', async () => {
    const dead = await deadUrl();
    const port = new URL(dead).port;
    const { code, stderr } = await spawnCli(['--base-url', dead]);
    expect({ code, stderr }).toEqual(provesNothing(`--base-url ${dead} does not answer: connect ECONNREFUSED 127.0.0.1:${port}`));
  });

  it('so is a control URL', async () => {
    const dead = await deadUrl();
    const { code, stderr } = await spawnCli(['--base-url', url, '--control-url', dead]);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^switchyard-conformance: --control-url ${dead} does not answer: connect ECONNREFUSED [^\\n]+\\n$`));
  });

  it('a fixtures file that does not exist, named by its path resolved against the working directory', async () => {
    const { code, stderr } = await spawnCli(['--base-url', url, ...STAGING, '--fixtures', 'missing.json'], { cwd: dir });
    const file = join(dir, 'missing.json');
    expect({ code, stderr }).toEqual(provesNothing(`--fixtures ${file} cannot be read: ENOENT: no such file or directory, open '${file}'`));
  });

  it('or against INIT_CWD when pnpm ran the command from another directory', async () => {
    const { code, stderr } = await spawnCli(['--base-url', url, ...STAGING, '--fixtures', 'missing.json'], { cwd: tmpdir(), env: { INIT_CWD: dir } });
    expect(code).toBe(2);
    expect(stderr).toContain(`--fixtures ${join(dir, 'missing.json')} cannot be read`);
  });

  it('a fixtures file that is not JSON', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ "payment_id": ');
    const { code, stderr } = await spawnCli(['--base-url', url, ...STAGING, '--fixtures', file]);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^switchyard-conformance: --fixtures ${file} is not valid JSON: [^\\n]+\\n$`));
  });

  it('a fixtures file with a misspelt key or a value that is not an id', async () => {
    const file = join(dir, 'typo.json');
    writeFileSync(file, JSON.stringify({ paymnt_id: 'pay_1', customer_id: 7 }));
    const { code, stderr } = await spawnCli(['--base-url', url, ...STAGING, '--fixtures', file]);
    expect({ code, stderr }).toEqual(provesNothing(`--fixtures ${file} is not a fixtures file: customer_id: Expected string, received number; the file: Unrecognized key(s) in object: 'paymnt_id'`));
  });

  it('a profile without its required inputs', async () => {
    const { code, stderr } = await spawnCli(['--base-url', url, '--profile', 'staging', '--public-key', 'pk']);
    expect({ code, stderr }).toEqual(provesNothing('the staging profile needs --secret-key, --account-id'));
  });

  it('an --only that selects no check', async () => {
    const { code, stderr, stdout } = await spawnCli(['--base-url', url, '--only', 'noSuchOperation']);
    expect({ code, stderr }).toEqual(provesNothing('no check ran: --only noSuchOperation matches no domain, check or operationId'));
    expect(stdout).toContain('checks: 0 passed, 0 failed, 0 skipped\n');
  });

  it('the sandbox profile against a server without the control API', async () => {
    const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'NOT_FOUND', messages: ['no such route'] })));
    const bare = await listen(server);
    try {
      const { code, stderr } = await spawnCli(['--base-url', bare, '--only', 'createCustomer']);
      expect({ code, stderr }).toEqual(
        provesNothing(`the suite stopped outside any check: the sandbox profile makes its tenants with POST ${bare}/sandbox/merchants, which answered 404 (a server without the /sandbox control API needs --profile staging)`),
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a staging run with relative paths, started by pnpm from another directory', () => {
  it('reads the fixtures and writes the report where the caller is, and the fixture ids are used', async () => {
    const anonymous = createClient({ baseUrl: url, publicApiKey: 'none', privateSecretKey: 'none' });
    const merchant = await anonymous.sandbox.createMerchant({ body: { name: 'cli-test' } });
    const client = createClient({ baseUrl: url, publicApiKey: merchant.public_api_key, privateSecretKey: merchant.private_secret_key });
    const customer = await client.customers.create({ body: examples.createCustomer() });
    const caller = scratchDir('caller-');
    writeFileSync(join(caller, 'fixtures.json'), JSON.stringify({ customer_id: customer.id }));
    const keys = ['--public-key', merchant.public_api_key, '--secret-key', merchant.private_secret_key, '--account-id', merchant.account_ids[0] as string];
    const { code, stderr } = await spawnCli(['--base-url', url, '--profile', 'staging', ...keys, '--fixtures', 'fixtures.json', '--only', 'getCustomer', '--reporter', 'json', '--output', 'report.json'], {
      cwd: dir,
      env: { INIT_CWD: caller },
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
    const report = JSON.parse(readFileSync(join(caller, 'report.json'), 'utf8')) as ConformanceReport;
    const positive = report.tests.find((t) => t.operationId === 'getCustomer' && t.check === 'positive_data_acceptance');
    expect(positive?.outcome).toBe('pass');
    expect(report.tests.filter((t) => t.outcome === 'fail')).toEqual([]);
  });
});
