import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { ConnectionError, createClient, TimeoutError } from '@switchyard/client';
import { fixtures } from '@switchyard/contract/fixtures';
import { CLI_BUNDLE } from '../test-support/cli.js';
import { freshSchema, testDatabaseUrl } from '../test-support/database.js';

const url = testDatabaseUrl('durability.test.ts');
const KEYS = { publicApiKey: 'sandbox_pk_demo_switchyard', privateSecretKey: 'sandbox_sk_demo_switchyard' };
const ACCOUNT = '4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31';

function start(schema: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI_BUNDLE, '--port', '0', '--database-url', url as string, '--database-schema', schema, '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      out += String(d);
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out}`)));
  });
}

describe.skipIf(!url)('durability on PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => drop?.());

  it('keeps every acknowledged write and no partial state across a SIGKILL in the middle of a write load', { timeout: 120_000 }, async () => {
    const db = await freshSchema(url as string);
    drop = db.drop;
    const first = await start(db.schema);
    // A hang detector, not a speed goal: a request of a live sandbox under this load may take
    // seconds on a slow, busy machine, and a worker that gave up on it would shrink the load.
    const client = createClient({ ...KEYS, baseUrl: first.url, maxRetries: 0, timeoutMs: 60_000 });
    const acknowledged = { customers: [] as string[], payments: [] as string[] };
    let stop = false;
    const worker = async (n: number) => {
      for (let i = 0; !stop; i += 1) {
        try {
          const c = await client.customers.create({ body: { merchant_customer_id: `dur-${n}-${i}` } });
          acknowledged.customers.push(c.id);
          const s = await client.checkout.createSession({ body: { ...fixtures.createCheckoutSession(c.id), account_id: ACCOUNT } });
          const p = await client.payments.create({ body: { ...fixtures.createPayment(s.checkout_session), account_id: ACCOUNT } });
          acknowledged.payments.push(p.id);
        } catch (error) {
          // The process died under us (its connections cut or refused): what was acknowledged is
          // what counts. Anything else, an error answer or a time-out of a live sandbox, fails the test.
          if (error instanceof ConnectionError && !(error instanceof TimeoutError)) return;
          stop = true;
          throw error;
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, n) => worker(n)));
    // Awaited below; until then a worker's failure must not count as unhandled.
    load.catch(() => undefined);
    // Kill once a fair number of writes is acknowledged and more are in flight: by count, not by
    // time, so a busy machine cannot make the load too small to prove anything.
    const deadline = Date.now() + 60_000;
    while (!stop && acknowledged.customers.length < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    stop = true;
    await load;
    expect(acknowledged.customers.length).toBeGreaterThan(10);

    const second = await start(db.schema);
    try {
      const after = createClient({ ...KEYS, baseUrl: second.url });
      for (const id of acknowledged.customers) expect((await after.customers.get({ params: { customer_id: id } })).id).toBe(id);
      for (const id of acknowledged.payments) {
        const p = await after.payments.get({ params: { payment_id: id } });
        expect([p.status, p.amount.captured]).toEqual(['SUCCEEDED', p.amount.value]);
      }
      // No partial state: every payment's checkout session points back at it, and every used session's payment exists.
      const pg = (await import('pg')).default;
      const c = new pg.Client({ connectionString: url, options: `-c search_path=${db.schema}` });
      await c.connect();
      try {
        const sessions = (await c.query<{ data: { payment_id: string | null; resource: { checkout_session: string } } }>("SELECT data FROM records WHERE kind = 'checkout_session'")).rows;
        const payments = (await c.query<{ data: { id: string; checkout_session: string; transactions: unknown[] } }>("SELECT data FROM records WHERE kind = 'payment'")).rows;
        const paymentIds = new Set(payments.map((p) => p.data.id));
        for (const s of sessions) if (s.data.payment_id) expect(paymentIds.has(s.data.payment_id)).toBe(true);
        const bySession = new Map(sessions.map((s) => [s.data.resource.checkout_session, s.data.payment_id]));
        for (const p of payments) {
          expect(bySession.get(p.data.checkout_session)).toBe(p.data.id);
          expect(p.data.transactions.length).toBeGreaterThan(0);
        }
        const events = (await c.query<{ n: string }>("SELECT count(*) AS n FROM records WHERE kind = 'event' AND data->>'type' = 'payment.purchase'")).rows[0];
        expect(Number(events?.n)).toBe(payments.length);
      } finally {
        await c.end();
      }
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});
