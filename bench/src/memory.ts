import { fixtures } from '@switchyard/contract/fixtures';
import { createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';
import type { Figure } from './report.js';

const KEYS = { 'public-api-key': 'sandbox_pk_demo_switchyard', 'private-secret-key': 'sandbox_sk_demo_switchyard' };
const ACCOUNT = '4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31';

const gc = (globalThis as { gc?: () => void }).gc;

/** Memory after a full collection (run with --expose-gc), so garbage is not counted as stored data. */
function afterGc(): { rss: number; heap: number } {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { ...KEYS, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json() as Promise<Record<string, unknown>>;
}

async function each(count: number, fn: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(Array.from({ length: 24 }, async () => {
    while (next < count) await fn(next++);
  }));
}

/**
 * Resident memory of a sandbox on the memory store after storing `count` customers, then `count`
 * payments (each with its checkout session and events, as the API stores them).
 */
export async function memoryBench(count: number): Promise<Figure[]> {
  // In this process, so that a full collection can run before each reading.
  const sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'warn' });
  const url = await sandbox.start();
  try {
    await post(url, '/v1/customers', { merchant_customer_id: 'warm-up' });
    const before = afterGc();
    await each(count, (i) => post(url, '/v1/customers', { ...fixtures.createCustomer(), merchant_customer_id: `mem-${i}` }));
    const afterCustomers = afterGc();
    await each(count, async (i) => {
      const s = await post(url, '/v1/checkout/sessions', { ...fixtures.createCheckoutSession(), account_id: ACCOUNT });
      await post(url, '/v1/payments', { ...fixtures.createPayment(s.checkout_session as string), account_id: ACCOUNT }, { 'x-idempotency-key': `mem-${i}` });
    });
    const afterPayments = afterGc();
    const perCustomer = (afterCustomers.rss - before.rss) / count;
    const perPayment = (afterPayments.rss - afterCustomers.rss) / count;
    const heapPerCustomer = (afterCustomers.heap - before.heap) / count;
    return [
      { name: `Live heap per stored customer (${count} customers, memory store${gc ? ', after GC' : ''})`, ours: heapPerCustomer, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: 'report', met: null },
      { name: `Resident memory per stored customer (${count} customers, memory store${gc ? ', after GC' : ''})`, ours: perCustomer, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: '≤ 2048 bytes', met: perCustomer <= 2048 },
      { name: `Resident memory per stored payment (${count} payments with their session, idempotency record and events)`, ours: perPayment, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: 'report', met: null },
    ];
  } finally {
    await sandbox.stop();
  }
}
