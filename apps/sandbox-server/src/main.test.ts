import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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

describe('switchyard-sandbox CLI', () => {
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

  it('exits 2 with a clear message on a bad flag', async () => {
    const cli = startCli(['--port', 'eighty']);
    expect(await cli.exited).toBe(2);
    expect(cli.errors()).toContain('--port must be an integer from 0 to 65535');
  });
});
