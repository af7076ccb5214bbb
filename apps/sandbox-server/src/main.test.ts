import { createServer, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CLOCK_ADVANCE_SECONDS } from '@switchyard/contract';
import pg from 'pg';
import { sandboxNodeFlags } from '@switchyard/tooling/node-flags';
import { DEMO_MERCHANT } from './app/sandbox.js';
import type { PaymentState } from './domain/payment-state.js';
import type { SubscriptionState } from './domain/subscriptions.js';
import { SEEDED_EPOCH_MS } from './runtime/clock.js';
import type { MerchantRecord } from './store/types.js';
import { START_SCRIPT, startCli } from './test-support/cli.js';
import { dailySubscriptionsWithDeadWebhook } from './test-support/clock-load.js';
import { freshSchema, testDatabaseUrl } from './test-support/database.js';
import { clientsFor, raw } from './test-support/harness.js';
import { eventually } from './test-support/receiver.js';

// Each test spawns the CLI once, which took seconds on a busy machine: a test that needs several
// spawns is split into one test per spawn, so that each gets the whole bound (three spawns in one
// test ran out of 60 s on a machine 20 times slower than usual).
const spawns = { timeout: 60_000 };

describe('switchyard-sandbox CLI', spawns, () => {
  it('starts on the given port, prints the demo keys, serves, and stops cleanly on SIGTERM', async () => {
    const cli = startCli(['--port', '0']);
    try {
      const url = await cli.url;
      expect(cli.output()).toContain('sandbox_pk_demo_switchyard');
      expect(cli.output()).toContain('4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31');
      expect((await fetch(`${url}/health`)).status).toBe(200);
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    } finally {
      await cli.stop();
    }
  });

  it('reads settings from the environment', async () => {
    const cli = startCli([], { SANDBOX_PORT: '0', SANDBOX_SEED: 'env-seed' });
    try {
      const url = await cli.url;
      const res = await fetch(`${url}/sandbox/clock`, { headers: { 'public-api-key': 'sandbox_pk_demo_switchyard', 'private-secret-key': 'sandbox_sk_demo_switchyard' } });
      expect(await res.json()).toMatchObject({ now: '2026-01-01T00:00:00.000Z', frozen: true });
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    } finally {
      await cli.stop();
    }
  });

  it.each(['-h', '--help'])('prints the usage for %s', async (flag) => {
    const cli = startCli([flag]);
    try {
      expect(await cli.exited).toBe(0);
      expect(cli.output()).toContain('-h, --help');
      expect(cli.output()).toContain('--database-url');
      // What the errors' hint sends a reader to --help for: the env-only settings, and how to turn logs off.
      expect(cli.output()).toContain('SANDBOX_BODY_LIMIT');
      expect(cli.output()).toContain('silent');
    } finally {
      await cli.stop();
    }
  });

  it('names the memory store in the banner, with the index and the OpenAPI document', async () => {
    const cli = startCli(['--port', '0']);
    try {
      const url = await cli.url;
      expect(cli.output()).toContain('Store: memory');
      expect(cli.output()).toContain(`${url}/openapi.json`);
      expect(cli.output()).toContain(`Inspector: ${url}/inspector`);
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    } finally {
      await cli.stop();
    }
  });

  it('starts from a bundle of the sources through the repository\'s sandbox script, saying so, and exits 0 on Ctrl-C', async () => {
    const cli = startCli(['--port', '0'], {}, [...sandboxNodeFlags(), START_SCRIPT]);
    try {
      const url = await cli.url;
      expect(cli.errors()).toMatch(/sandbox: bundled \d+ modules into apps\/sandbox-server\/dist\/bundle\/main\.js in [\d.]+ s; starting/);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      cli.child.kill('SIGINT');
      expect(await cli.exited).toBe(0);
    } finally {
      await cli.stop();
    }
  });

  it("writes a request's log line to stdout while the sandbox sits idle", async () => {
    const cli = startCli(['--port', '0'], { SANDBOX_LOG_LEVEL: 'info' });
    try {
      const url = await cli.url;
      const requestId = `idle-log-${process.pid}`;
      expect((await fetch(`${url}/health`, { headers: { 'x-request-id': requestId } })).status).toBe(200);
      // No more traffic: the line must come out on its own (it used to wait for 4 KB of later lines).
      const line = await eventually(async () => cli.output().split('\n').find((l) => l.includes(requestId)), 15_000);
      expect(JSON.parse(line)).toMatchObject({ requestId, method: 'GET', path: '/health', status: 200, msg: 'request' });
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    } finally {
      await cli.stop();
    }
  });

  it('writes every line logged before a SIGTERM exit, the last request and "shutting down" included', async () => {
    const cli = startCli(['--port', '0'], { SANDBOX_LOG_LEVEL: 'info' });
    try {
      const url = await cli.url;
      const requestId = `exit-log-${process.pid}`;
      expect((await fetch(`${url}/health`, { headers: { 'x-request-id': requestId } })).status).toBe(200);
      // At once, before the batch's timer hands the request line over: the shutdown has to write it.
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
      const lines = cli.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; requestId?: string });
      expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', requestId }));
      expect(lines).toContainEqual(expect.objectContaining({ msg: 'shutting down', signal: 'SIGTERM' }));
    } finally {
      await cli.stop();
    }
  });
});

/** The CLI failed the way a person can act on: one line on stderr with a hint, no stack, nothing on stdout's banner. */
async function expectOneLineFailure(args: string[], exitCode: number, words: RegExp, env: Record<string, string> = {}) {
  const cli = startCli(args, env);
  try {
    expect(await cli.exited).toBe(exitCode);
    const lines = cli.errors().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^switchyard-sandbox: .+\. Hint: .+\.$/);
    expect(lines[0]).toMatch(words);
    expect(cli.output()).not.toContain('listening on');
    return lines[0] as string;
  } finally {
    // A CLI that unexpectedly started serving is not left running.
    await cli.stop();
  }
}

describe('switchyard-sandbox CLI failures', spawns, () => {
  it.each([
    ['flag', ['--nope'], /Unknown option '--nope'.*--help/],
    ['value', ['--port', 'eighty'], /--port must be an integer from 0 to 65535/],
  ])('a bad %s: one line, exit 2', async (_, args, words) => {
    await expectOneLineFailure(args, 2, words);
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

  it.each([
    ['not PostgreSQL', 'mysql://root:hunter22@127.0.0.1/shop', /mysql: URL.*postgres:\/\//],
    ['not a URL', 'not-a-url', /not a URL/],
    // A bad percent-escape used to escape as a URIError with its stack.
    ['with a bad percent-escape', 'postgres://app:hunter22%@127.0.0.1/shop', /password has a bad percent-escape/],
  ])('a database URL %s: one line, exit 2, no password', async (_, url, words) => {
    const line = await expectOneLineFailure(['--database-url', url], 2, words);
    expect(line).not.toContain('hunter22');
  });

  it('a bad database schema: one line, exit 2, before connecting', async () => {
    // Nothing listens on port 1: a check made only on connecting would fail with ECONNREFUSED and exit 1.
    const line = await expectOneLineFailure(['--database-url', 'postgres://app@127.0.0.1:1/shop', '--database-schema', 'bad"schema'], 2, /--database-schema must be a schema name .*, got "bad"schema"\. Hint: .*--database-schema \(or SANDBOX_DATABASE_SCHEMA\)/);
    expect(line).not.toContain('ECONNREFUSED');
  });

  it('a database schema without a database URL: one line, exit 2', async () => {
    await expectOneLineFailure(['--port', '0', '--database-schema', 'ci_42'], 2, /--database-schema needs a database URL.*Hint: pass --database-url/);
  });

  it('an unreachable database: one line, exit 1, no password', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const line = await expectOneLineFailure(['--port', '0'], 1, /cannot use PostgreSQL at 127\.0\.0\.1:1, database shop: .*ECONNREFUSED.*Hint: is PostgreSQL running/, {
      DATABASE_URL: 'postgres://app:hunter22@127.0.0.1:1/shop',
    });
    expect(line).not.toContain('hunter22');
  });
});

const databaseUrl = testDatabaseUrl('main.test.ts');

describe.skipIf(!databaseUrl)('switchyard-sandbox CLI on PostgreSQL', spawns, () => {
  it('migrate names the migrations it applied, then says the schema is up to date', async () => {
    const schema = `sy_migrate_${process.pid}`;
    const migrate = async () => {
      const cli = startCli(['migrate', '--database-url', databaseUrl as string, '--database-schema', schema]);
      expect(await cli.exited).toBe(0);
      return cli.output();
    };
    try {
      expect(await migrate()).toMatch(new RegExp(`^applied \\d+ migrations: 1 \\S+.* \\(PostgreSQL .*schema ${schema}\\)\\n$`));
      expect(await migrate()).toMatch(new RegExp(`^schema already up to date, nothing to apply \\(PostgreSQL .*schema ${schema}\\)\\n$`));
    } finally {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });

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
      await cli.stop();
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});

/**
 * A SIGTERM during a 10-year clock advance ends the process within a few seconds, by
 * the normal shutdown path (exit 0; the 10 s watchdog in main.ts exits 1, so the exit code is the
 * time bound). The advance stops between two batches and answers that it did; `afterExit` checks
 * what it left behind. The signal races the advance's last batch: an advance that finished just
 * before it answers 200 with the whole 10 years, which is as right (and what it stamped is checked
 * the same way on PostgreSQL).
 */
async function sigtermDuringAdvance(args: string[], env: Record<string, string> = {}): Promise<{ subscriptionIds: string[] }> {
  const cli = startCli(['--port', '0', ...args], env);
  let advance: ReturnType<typeof raw> | undefined;
  try {
    const url = await cli.url;
    const demo = clientsFor(url, DEMO_MERCHANT);
    const { subscriptionIds } = await dailySubscriptionsWithDeadWebhook(demo, DEMO_MERCHANT.account_ids[0], 3);
    advance = raw(url, '/sandbox/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'public-api-key': DEMO_MERCHANT.public_api_key, 'private-secret-key': DEMO_MERCHANT.private_secret_key },
      body: JSON.stringify({ seconds: MAX_CLOCK_ADVANCE_SECONDS }),
    });
    // Awaited below; until then a failed request must not count as unhandled.
    advance.catch(() => undefined);
    // Under way: the clock shows its first steps, far from the target.
    const moved = await eventually(async () => {
      const clock = await demo.sandbox.getClock();
      return clock.status === 200 && clock.body.offset_seconds > 0 ? clock.body.offset_seconds : undefined;
    }, 60_000);
    expect(moved).toBeLessThan(MAX_CLOCK_ADVANCE_SECONDS);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    const answer = await advance;
    if (answer.status === 200) {
      expect(answer.body).toMatchObject({ offset_seconds: MAX_CLOCK_ADVANCE_SECONDS });
    } else {
      expect(answer).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR', messages: [expect.stringContaining('shutting down')] } });
      const stoppedAt = Number(/offset_seconds (\d+)/.exec((answer.body?.messages as string[])[0] ?? '')?.[1]);
      expect(stoppedAt).toBeGreaterThanOrEqual(moved);
      expect(stoppedAt).toBeLessThan(MAX_CLOCK_ADVANCE_SECONDS);
    }
    return { subscriptionIds };
  } finally {
    await cli.stop();
    await advance?.catch(() => undefined);
  }
}

describe('SIGTERM during a clock advance', () => {
  it('stops the advance between batches and exits within a few seconds (memory store)', async () => {
    await sigtermDuringAdvance([]);
  }, 120_000);

  const url = testDatabaseUrl('main.test.ts');
  describe.skipIf(!url)('on PostgreSQL', () => {
    let drop: (() => Promise<void>) | undefined;
    afterAll(() => drop?.());

    it('leaves every charge whole and none after the clock', async () => {
      const db = await freshSchema(url as string);
      drop = db.drop;
      // Seeded: the clock is frozen, so the merchant's time is exactly the epoch plus its offset.
      const { subscriptionIds } = await sigtermDuringAdvance(['--seed', 'sigterm'], { DATABASE_URL: url as string, SANDBOX_DATABASE_SCHEMA: db.schema });
      const client = new pg.Client({ connectionString: url, options: `-c search_path=${db.schema}` });
      await client.connect();
      try {
        const [merchant] = (await client.query<{ data: MerchantRecord }>('SELECT data FROM merchants WHERE public_api_key = $1', [DEMO_MERCHANT.public_api_key])).rows.map((r) => r.data);
        if (!merchant) throw new Error('the demo merchant is gone');
        const payments = (await client.query<{ data: PaymentState }>("SELECT data FROM records WHERE merchant_id = $1 AND kind = 'payment'", [merchant.id])).rows.map((r) => r.data);
        const subscriptions = (await client.query<{ data: SubscriptionState }>("SELECT data FROM records WHERE merchant_id = $1 AND kind = 'subscription'", [merchant.id])).rows.map((r) => r.data);
        expect(subscriptions.map((s) => s.id).sort()).toEqual([...subscriptionIds].sort());
        // Each charge is its payment and its subscription's count together, or neither.
        for (const s of subscriptions) expect(payments.filter((p) => p.subscription_id === s.id)).toHaveLength(s.billing_current);
        expect(payments.length).toBeGreaterThan(3);
        // The clock stopped at or after the last charge: nothing is stamped in the merchant's future.
        const last = Math.max(...payments.map((p) => Date.parse(p.created_at)));
        expect(last).toBeLessThanOrEqual(SEEDED_EPOCH_MS + merchant.clock_offset_seconds * 1000);
      } finally {
        await client.end();
      }
    }, 180_000);
  });
});
