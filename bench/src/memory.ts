import { readFileSync } from 'node:fs';
import { fixtures } from '@switchyard/contract/fixtures';
import type { Figure } from './report.js';
import { startSandboxProcess } from './processes.js';

const KEYS = { 'public-api-key': 'sandbox_pk_demo_switchyard', 'private-secret-key': 'sandbox_sk_demo_switchyard' };
const ACCOUNT = '4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31';

/** Resident memory of a process, from /proc (Linux). */
function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
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
  const sandbox = await startSandboxProcess(['--log-level', 'warn']);
  try {
    const pid = sandbox.child.pid as number;
    await post(sandbox.url, '/v1/customers', { merchant_customer_id: 'warm-up' });
    const before = rssBytes(pid);
    await each(count, (i) => post(sandbox.url, '/v1/customers', { ...fixtures.createCustomer(), merchant_customer_id: `mem-${i}` }));
    const afterCustomers = rssBytes(pid);
    await each(count, async (i) => {
      const s = await post(sandbox.url, '/v1/checkout/sessions', { ...fixtures.createCheckoutSession(), account_id: ACCOUNT });
      await post(sandbox.url, '/v1/payments', { ...fixtures.createPayment(s.checkout_session as string), account_id: ACCOUNT }, { 'x-idempotency-key': `mem-${i}` });
    });
    const afterPayments = rssBytes(pid);
    const perCustomer = (afterCustomers - before) / count;
    const perPayment = (afterPayments - afterCustomers) / count;
    return [
      { name: `Resident memory per stored customer (${count} customers, memory store)`, ours: perCustomer, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: '≤ 2048 bytes', met: perCustomer <= 2048 },
      { name: `Resident memory per stored payment (${count} payments with their session, idempotency record and events)`, ours: perPayment, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: 'report', met: null },
    ];
  } finally {
    await sandbox.stop();
  }
}
