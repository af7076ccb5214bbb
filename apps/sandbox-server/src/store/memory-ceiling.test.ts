import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import type { SandboxMerchant } from '@switchyard/contract';
import { clientsFor, idemKey, newMerchant, pay, startSandbox, type Clients, type RunningSandbox } from '../test-support/harness.js';
import { HEAP_SHARE, MemoryCeiling, readMemory, type MemoryReading } from './memory-ceiling.js';
import { MemoryStore } from './memory.js';

describe('the memory ceiling', () => {
  it('is reached when the process holds as much resident memory as its limit, read from the process itself', () => {
    // One byte: whatever this process holds is past it.
    expect(new MemoryCeiling({ limitBytes: 1 }).reached()).toMatch(/^the process holds \d+ MB resident, at or past its memory limit of 0 MB$/);
    expect(new MemoryCeiling({ limitBytes: Number.MAX_SAFE_INTEGER }).reached()).toBeUndefined();
  });

  it('is reached past its share of the heap Node allows, with no limit configured', () => {
    const limit = 1024 ** 3;
    const at = (share: number, offHeapShare = 0) => new MemoryCeiling({ read: () => ({ residentBytes: 0, heapUsedBytes: share * limit, heapLimitBytes: limit }) }).reached(offHeapShare * limit);
    expect(at(HEAP_SHARE - 0.01)).toBeUndefined();
    expect(at(HEAP_SHARE)).toBe('its heap and the records it keeps outside it hold 870 MB of the 1024 MB Node allows its heap (--max-old-space-size)');
    // Compacted records leave the heap for slabs, and still count against the same bound.
    expect(at(HEAP_SHARE / 2 - 0.01, HEAP_SHARE / 2)).toBeUndefined();
    expect(at(HEAP_SHARE / 2, HEAP_SHARE / 2)).toBe('its heap and the records it keeps outside it hold 870 MB of the 1024 MB Node allows its heap (--max-old-space-size)');
  });

  it("counts the memory store's records outside the heap with the heap", async () => {
    const limit = 1024 ** 3;
    // 1 MB short of the share: a slab of compacted records (4 MB) passes it.
    const ceiling = new MemoryCeiling({ read: () => ({ residentBytes: 0, heapUsedBytes: HEAP_SHARE * limit - 1024 ** 2, heapLimitBytes: limit }), sampleEveryMs: 0 });
    const store = new MemoryStore({ ceiling, compaction: 'at-commit' });
    await store.withTransaction('m', (tx) => tx.put('customer', 'c1', { id: 'c1' }));
    expect(store.offHeapBytes).toBeGreaterThan(1024 ** 2);
    await expect(store.withTransaction('m', (tx) => tx.put('customer', 'c2', { id: 'c2' }))).rejects.toThrow(/its heap and the records it keeps outside it hold/);
  });

  it('reads memory again only once its sampling interval has passed', () => {
    let reads = 0;
    let nowMs = 0;
    const ceiling = new MemoryCeiling({
      limitBytes: 100,
      read: () => {
        reads += 1;
        return { residentBytes: 50 * reads, heapUsedBytes: 0, heapLimitBytes: 1 };
      },
      sampleEveryMs: 100,
      nowMs: () => nowMs,
    });
    expect(ceiling.reached()).toBeUndefined();
    nowMs = 99;
    expect(ceiling.reached()).toBeUndefined();
    expect(reads).toBe(1);
    nowMs = 100;
    expect(ceiling.reached()).toMatch(/memory limit/);
    expect(reads).toBe(2);
  });

  it('at its resident limit, reclaims memory and reads again before refusing, at most every 10 s', () => {
    let resident = 150;
    let reclaims = 0;
    let nowMs = 0;
    const ceiling = new MemoryCeiling({
      limitBytes: 100,
      read: () => ({ residentBytes: resident, heapUsedBytes: 0, heapLimitBytes: 1 }),
      sampleEveryMs: 0,
      nowMs: () => nowMs,
      reclaim: () => {
        reclaims += 1;
        resident = 60;
      },
    });
    expect(ceiling.reached()).toBeUndefined();
    expect(reclaims).toBe(1);
    // Past the limit again within 10 s: refused without another collection.
    resident = 150;
    nowMs = 9_999;
    expect(ceiling.reached()).toMatch(/memory limit/);
    expect(reclaims).toBe(1);
    nowMs = 10_000;
    expect(ceiling.reached()).toBeUndefined();
    expect(reclaims).toBe(2);
  });

  it('refuses when what a collection hands back is not enough', () => {
    let reclaims = 0;
    const ceiling = new MemoryCeiling({ limitBytes: 100, read: () => ({ residentBytes: 150, heapUsedBytes: 0, heapLimitBytes: 1 }), sampleEveryMs: 0, nowMs: () => 0, reclaim: () => (reclaims += 1) });
    expect(ceiling.reached()).toMatch(/the process holds 0 MB resident/);
    expect(reclaims).toBe(1);
  });
});

describe('a sandbox past its memory ceiling', () => {
  // The process's own reading until the test says the limit is reached: then resident memory reads as the limit.
  const limitBytes = 64 * 1024 ** 3;
  let full = false;
  const reading = (): MemoryReading => ({ ...readMemory(), ...(full ? { residentBytes: limitBytes } : {}) });
  let running: RunningSandbox;
  let clients: Clients;
  let merchant: SandboxMerchant;

  beforeAll(async () => {
    running = await startSandbox({}, { store: new MemoryStore({ ceiling: new MemoryCeiling({ limitBytes, read: reading, sampleEveryMs: 0 }) }) });
    merchant = await newMerchant(running.url);
    clients = clientsFor(running.url, merchant);
  });
  afterAll(() => running.stop());

  it('refuses new records with 429 in the API error shape, keeps reads working, and releases the idempotency key', async () => {
    const customer = await clients.customers.create({ body: { ...fixtures.createCustomer(), merchant_customer_id: `ceiling-${idemKey()}` } });
    expect(customer.status).toBe(201);
    const payment = await pay(clients, merchant);
    full = true;

    const refused = await clients.customers.create({ body: { ...fixtures.createCustomer(), merchant_customer_id: `ceiling-${idemKey()}` } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'TOO_MANY_REQUESTS',
      messages: [
        'the sandbox refuses new records: the process holds 65536 MB resident, at or past its memory limit of 65536 MB',
        'reads, updates and deletions still work; POST /sandbox/reset or a higher SANDBOX_MEMORY_LIMIT makes room',
      ],
    });
    const session = await clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: merchant.account_ids[0] as string } });
    expect(session.status).toBe(429);

    // Reads: a record by id, and the inspector's overview, both as stored before.
    const read = await clients.customers.get({ params: { customer_id: (customer.body as { id: string }).id } });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(customer.body);
    const readPayment = await clients.payments.get({ params: { payment_id: payment.id } });
    expect(readPayment.status).toBe(200);
    expect((readPayment.body as { id: string }).id).toBe(payment.id);
    const overview = await clients.sandbox.getInspectorOverview({ query: {} });
    expect(overview.status).toBe(200);
    expect((overview.body as { payments: { items: { id: string }[] } }).payments.items.map((p) => p.id)).toContain(payment.id);

    // A payment refused for memory made nothing, so its key is free once there is room again.
    const open = await (async () => {
      full = false;
      const s = await clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: merchant.account_ids[0] as string } });
      full = true;
      return s;
    })();
    expect(open.status).toBe(200);
    const key = idemKey();
    const body = { ...fixtures.createPayment((open.body as { checkout_session: string }).checkout_session), account_id: merchant.account_ids[0] as string };
    const first = await clients.payments.create({ body, headers: { 'x-idempotency-key': key } });
    expect(first.status).toBe(429);
    full = false;
    const again = await clients.payments.create({ body, headers: { 'x-idempotency-key': key } });
    expect(again.status).toBe(201);
  });
});
