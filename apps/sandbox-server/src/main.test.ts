import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './test-support/database.js';

const entry = fileURLToPath(new URL('./main.ts', import.meta.url));

function startCli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], { env: { ...process.env, SANDBOX_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', () => reject(new Error(`exited before listening: ${err}`)));
  });
  // A CLI that is expected to fail never listens; the rejection is only an error for tests that await the URL.
  url.catch(() => undefined);
  return { child, url, exited, output: () => out, errors: () => err };
}

// Each test spawns the CLI through tsx, which takes seconds on a busy machine.
const spawns = { timeout: 60_000 };

describe('switchyard-sandbox CLI', spawns, () => {
  it('starts on the given port, prints the demo keys, serves, and stops cleanly on SIGTERM', async () => {
    const cli = startCli(['--port', '0']);
    const url = await cli.url;
    expect(cli.output()).toContain('sandbox_pk_demo_switchyard');
    expect(cli.output()).toContain('4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31');
    expect((await fetch(`${url}/health`)).status).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });

  it('reads settings from the environment', async () => {
    const cli = startCli([], { SANDBOX_PORT: '0', SANDBOX_SEED: 'env-seed' });
    const url = await cli.url;
    const res = await fetch(`${url}/sandbox/clock`, { headers: { 'public-api-key': 'sandbox_pk_demo_switchyard', 'private-secret-key': 'sandbox_sk_demo_switchyard' } });
    expect(await res.json()).toMatchObject({ now: '2026-01-01T00:00:00.000Z', frozen: true });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });

  it('prints the usage for -h as for --help', async () => {
    for (const flag of ['-h', '--help']) {
      const cli = startCli([flag]);
      expect(await cli.exited).toBe(0);
      expect(cli.output()).toContain('-h, --help');
      expect(cli.output()).toContain('--database-url');
    }
  });

  it('names the memory store in the banner, with the index and the OpenAPI document', async () => {
    const cli = startCli(['--port', '0']);
    const url = await cli.url;
    expect(cli.output()).toContain('Store: memory');
    expect(cli.output()).toContain(`${url}/openapi.json`);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });

  it("writes a request's log line to stdout while the sandbox sits idle", async () => {
    const cli = startCli(['--port', '0'], { SANDBOX_LOG_LEVEL: 'info' });
    const url = await cli.url;
    const requestId = `idle-log-${process.pid}`;
    expect((await fetch(`${url}/health`, { headers: { 'x-request-id': requestId } })).status).toBe(200);
    // No more traffic: the line must come out on its own (it used to wait for 4 KB of later lines).
    const line = await poll(() => cli.output().split('\n').find((l) => l.includes(requestId)));
    expect(JSON.parse(line)).toMatchObject({ requestId, method: 'GET', path: '/health', status: 200, msg: 'request' });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });
});

/** Waits for `read` to find something, checking every 50 ms; fails after `limitMs` (a bound on a hang, not a timing claim). */
async function poll<T>(read: () => T | undefined, limitMs = 15_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const found = read();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('not found in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The CLI failed the way a person can act on: one line on stderr with a hint, no stack, nothing on stdout's banner. */
async function expectOneLineFailure(args: string[], exitCode: number, words: RegExp, env: Record<string, string> = {}) {
  const cli = startCli(args, env);
  expect(await cli.exited).toBe(exitCode);
  const lines = cli.errors().trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^switchyard-sandbox: .+\. Hint: .+\.$/);
  expect(lines[0]).toMatch(words);
  expect(cli.output()).not.toContain('listening on');
  return lines[0] as string;
}

describe('switchyard-sandbox CLI failures', spawns, () => {
  it('a bad flag or value: one line, exit 2', async () => {
    await expectOneLineFailure(['--nope'], 2, /Unknown option '--nope'.*--help/);
    await expectOneLineFailure(['--port', 'eighty'], 2, /--port must be an integer from 0 to 65535/);
  });

  it('a port in use: one line, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      await expectOneLineFailure(['--port', String(port)], 1, new RegExp(`port ${port} on 127.0.0.1 is already in use.*--port 0`));
    } finally {
      taken.close();
    }
  });

  it('a database URL that is not PostgreSQL or not a URL: one line, exit 2, no password', async () => {
    const line = await expectOneLineFailure(['--database-url', 'mysql://root:hunter22@127.0.0.1/shop'], 2, /mysql: URL.*postgres:\/\//);
    expect(line).not.toContain('hunter22');
    await expectOneLineFailure(['--database-url', 'not-a-url'], 2, /not a URL/);
  });

  it('an unreachable database: one line, exit 1, no password', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const line = await expectOneLineFailure(['--port', '0'], 1, /cannot use PostgreSQL at 127\.0\.0\.1:1, database shop: .*ECONNREFUSED.*Hint: is PostgreSQL running/, {
      DATABASE_URL: 'postgres://app:hunter22@127.0.0.1:1/shop',
    });
    expect(line).not.toContain('hunter22');
  });
});

const databaseUrl = testDatabaseUrl();

describe.skipIf(!databaseUrl)('switchyard-sandbox CLI on PostgreSQL', spawns, () => {
  it('names the database in the banner, never the password', async () => {
    // Trust authentication ignores the password, so the URL can carry one the banner must not print.
    const url = new URL(databaseUrl as string);
    url.password = 'hunter22';
    const schema = `sy_cli_${process.pid}`;
    const cli = startCli(['--port', '0', '--database-url', url.toString(), '--database-schema', schema]);
    try {
      await cli.url;
      expect(cli.output()).toContain(`Store: PostgreSQL ${url.hostname}:${url.port || '5432'}, database ${url.pathname.slice(1)}, schema ${schema}`);
      expect(cli.output()).not.toContain('hunter22');
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});
