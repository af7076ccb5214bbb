import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '@switchyard/client';
import type { SandboxMerchant } from '@switchyard/contract';
import { fixtures } from '@switchyard/contract/fixtures';
import { removeScratchDirs, scratchDir } from '@switchyard/tooling/scratch';
import { ConfigError } from './config.js';
import { MemoryStore } from './store/memory.js';
import { clientsFor, newMerchant, startSandbox } from './test-support/harness.js';

afterAll(removeScratchDirs);

const dir = scratchDir('switchyard-merchants-');

describe('merchants from a file', () => {
  it('loads them next to the demo merchant', async () => {
    const file = join(dir, 'merchants.json');
    const merchant = {
      name: 'Team A',
      public_api_key: 'sandbox_pk_team_a_0001',
      private_secret_key: 'sandbox_sk_team_a_0001',
      account_ids: ['7b0c2a4e-1f3d-4c5b-8a9e-0d1f2e3c4b5a'],
    };
    writeFileSync(file, JSON.stringify([merchant]));
    const sb = await startSandbox({ merchantsFile: file });
    try {
      const c = clientsFor(sb.url, merchant);
      const session = await c.checkout.createSession({
        body: { merchant_order_id: 'order-1', payment_description: 'Order 1', country: 'AR', account_id: merchant.account_ids[0] as string },
      });
      expect(session.status).toBe(200);
      const demo = clientsFor(sb.url, { public_api_key: 'sandbox_pk_demo_switchyard', private_secret_key: 'sandbox_sk_demo_switchyard' });
      expect((await demo.sandbox.getClock()).status).toBe(200);
      const stored = await sb.sandbox.store.findMerchantByPublicKey(merchant.public_api_key);
      expect(JSON.stringify(stored)).not.toContain(merchant.private_secret_key);
    } finally {
      await sb.stop();
    }
  });

  it('refuses a malformed file with a ConfigError naming it', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify([{ public_api_key: 'short' }]));
    await expect(startSandbox({ merchantsFile: file })).rejects.toThrow(ConfigError);
    await expect(startSandbox({ merchantsFile: join(dir, 'missing.json') })).rejects.toThrow(/cannot load merchants from/);
  });
});

describe('merchants created through the API with a seed', () => {
  const create = async (url: string, body: { name?: string; accounts?: number } = {}) => (await createClient({ baseUrl: url, publicApiKey: 'none', privateSecretKey: 'none', maxRetries: 0 }).sandbox.createMerchant({ body }));
  const identity = ({ id, public_api_key, private_secret_key, account_ids }: SandboxMerchant) => ({ id, public_api_key, private_secret_key, account_ids });

  it('get the same ids and keys on every run: the n-th merchant of one run is the n-th of the next', async () => {
    const runs: SandboxMerchant[][] = [];
    for (let run = 0; run < 2; run += 1) {
      const sb = await startSandbox({ seed: 'merchants-seed' });
      try {
        runs.push([await create(sb.url, { accounts: 2 }), await create(sb.url, { accounts: 2 })]);
      } finally {
        await sb.stop();
      }
    }
    const [first, second] = runs as [SandboxMerchant[], SandboxMerchant[]];
    expect(second.map(identity)).toEqual(first.map(identity));
    expect(first[0]?.id).not.toBe(first[1]?.id);
    expect(first[0]?.id).toMatch(/^mer_[0-9a-f]{16}$/);
    expect(first[0]?.public_api_key).toMatch(/^sandbox_pk_[A-Za-z0-9_-]{32}$/);
    // The seeded sandbox's merchants work like any other: their keys authenticate.
    const sb = await startSandbox({ seed: 'merchants-seed' });
    try {
      const merchant = await create(sb.url);
      expect(merchant.public_api_key).toBe(first[0]?.public_api_key);
      expect((await clientsFor(sb.url, merchant).sandbox.getClock()).status).toBe(200);
    } finally {
      await sb.stop();
    }
  });

  it('differ between seeds, and are random without one', async () => {
    const ids: string[] = [];
    for (const seed of ['seed-a', 'seed-b', undefined, undefined]) {
      const sb = await startSandbox({ seed });
      try {
        ids.push((await create(sb.url)).id);
      } finally {
        await sb.stop();
      }
    }
    expect(new Set(ids).size).toBe(4);
  });

  it('never reuse a merchant a kept store already holds: the next ids of the seed are taken', async () => {
    // A memory store shared by two runs stands for a PostgreSQL database kept between restarts.
    const store = new MemoryStore();
    const first = await startSandbox({ seed: 'kept-store' }, { store });
    const earlier = await create(first.url).finally(() => first.stop());
    const second = await startSandbox({ seed: 'kept-store' }, { store });
    try {
      const next = await create(second.url);
      expect(next.id).not.toBe(earlier.id);
      expect(next.public_api_key).not.toBe(earlier.public_api_key);
      expect(await store.getMerchant(earlier.id)).toMatchObject({ public_api_key: earlier.public_api_key });
    } finally {
      await second.stop();
    }
  });
});

describe('memory handed back once requests stop, through a real server', () => {
  it.each([0, 1.5, 2 ** 31, Number.POSITIVE_INFINITY])('refuses a quiet time of %s ms, which no timer can wait', async (idleMs) => {
    await expect(startSandbox({}, { memoryRelease: { idleMs } })).rejects.toThrow(new RangeError(`memoryRelease.idleMs must be whole milliseconds from 1 to 2147483647, got ${idleMs}`));
  });

  it('logs an error the onRelease callback throws, and keeps serving', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => lines.push(line) });
    const sb = await startSandbox({}, { logger, memoryRelease: { idleMs: 50, minGrowthBytes: 0, onRelease: () => { throw new Error('observer broke'); } } });
    try {
      expect((await fetch(`${sb.url}/health`)).status).toBe(200);
      await vi.waitFor(() => expect(lines.some((l) => l.includes('the onRelease callback given to createSandbox failed') && l.includes('observer broke'))).toBe(true), { timeout: 10_000, interval: 20 });
      expect((await fetch(`${sb.url}/health`)).status).toBe(200);
    } finally {
      await sb.stop();
    }
  });

  it('releases after a quiet time, never while a request is held open past it, and again once it has been answered', async () => {
    const quietMs = 300;
    const holdMs = 2000;
    const releasedAt: number[] = [];
    const sb = await startSandbox({}, { memoryRelease: { idleMs: quietMs, minGrowthBytes: 0, onRelease: () => releasedAt.push(performance.now()) } });
    try {
      const c = clientsFor(sb.url, await newMerchant(sb.url));
      const customer = await c.customers.create({ body: { ...fixtures.createCustomer(), merchant_customer_id: 'release-wiring' } });
      expect(customer.status).toBe(201);
      await vi.waitFor(() => expect(releasedAt.length).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
      const rule = await c.sandbox.createFaultRule({ body: { match: { operation_id: 'getCustomer' }, effect: { type: 'latency', ms: holdMs } } });
      expect(rule.status).toBe(201);
      // A read the latency rule holds open for holdMs once the server has it, at some time r
      // between sending it and holdMs before its answer. A release may still come before r (after
      // the rule's request), and must come after r + holdMs; between the two bounds below, which
      // lie inside [r, r + holdMs) whatever r was, none may. Without the in-flight guard, one
      // would come at r + quietMs, inside them.
      const sent = performance.now();
      const read = await c.customers.get({ params: { customer_id: (customer.body as { id: string }).id } });
      const answered = performance.now();
      expect(read.status).toBe(200);
      expect(releasedAt.filter((at) => at >= answered - holdMs && at < sent + holdMs)).toEqual([]);
      await vi.waitFor(() => expect(releasedAt.some((at) => at >= sent + holdMs)).toBe(true), { timeout: 10_000, interval: 20 });
    } finally {
      await sb.stop();
    }
  });
});
