import { fixtures } from '@switchyard/contract/fixtures';
import { DEMO_ACCOUNT, pool, post } from './demo-api.js';
import { startSandboxProbe, type Spawned } from './processes.js';
import type { Figure } from './report.js';


interface Memory {
  rss: number;
  heap: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sandbox process's memory after two full collections, asked over its IPC channel. */
function measure(probe: Spawned): Promise<Memory> {
  return new Promise((resolve) => {
    probe.child.once('message', (m) => resolve(m as Memory));
    probe.child.send('measure');
  });
}

/**
 * Memory once the process has been idle long enough for V8's memory reducer to hand back the
 * heap pages that the write load grew and no longer needs. The reducer works in steps some
 * seconds apart, so readings are taken `intervalMs` apart (5 s in a full run) until resident
 * memory has moved by less than 1% twice in a row, for at most 18 readings. This is what a
 * sandbox that has stored the data and sits between test runs holds.
 */
async function settled(probe: Spawned, intervalMs: number): Promise<Memory> {
  let last = await measure(probe);
  let steady = 0;
  const deadline = Date.now() + 18 * intervalMs;
  while (steady < 2 && Date.now() < deadline) {
    await sleep(intervalMs);
    const now = await measure(probe);
    steady = Math.abs(now.rss - last.rss) / last.rss < 0.01 ? steady + 1 : 0;
    last = now;
  }
  return last;
}

/**
 * Resident memory of a sandbox on the memory store after storing `count` customers, then `count`
 * payments (each with its checkout session and events, as the API stores them). The sandbox runs
 * alone in its own process; the clients filling it run here.
 */
export async function memoryBench(count: number, settleIntervalMs: number): Promise<Figure[]> {
  const probe = await startSandboxProbe();
  const { url } = probe;
  try {
    await post(url, '/v1/customers', { merchant_customer_id: 'warm-up' });
    const before = await measure(probe);
    await pool(count, 24, (i) => post(url, '/v1/customers', { ...fixtures.createCustomer(), merchant_customer_id: `mem-${i}` }));
    const rightAfterCustomers = await measure(probe);
    const afterCustomers = await settled(probe, settleIntervalMs);
    await pool(count, 24, async (i) => {
      const s = await post<{ checkout_session: string }>(url, '/v1/checkout/sessions', { ...fixtures.createCheckoutSession(), account_id: DEMO_ACCOUNT });
      await post(url, '/v1/payments', { ...fixtures.createPayment(s.checkout_session), account_id: DEMO_ACCOUNT }, { 'x-idempotency-key': `mem-${i}` });
    });
    const afterPayments = await settled(probe, settleIntervalMs);
    const perCustomer = (afterCustomers.rss - before.rss) / count;
    const perCustomerRightAfter = (rightAfterCustomers.rss - before.rss) / count;
    const perPayment = (afterPayments.rss - afterCustomers.rss) / count;
    const heapPerCustomer = (afterCustomers.heap - before.heap) / count;
    return [
      { name: `Live heap per stored customer (${count} customers, memory store, after GC)`, ours: heapPerCustomer, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: 'report', met: null },
      { name: `Resident memory per stored customer, right after the writes (${count} customers, sandbox process alone, after GC)`, ours: perCustomerRightAfter, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: 'report', met: null },
      { name: `Resident memory per stored customer, once idle (${count} customers, sandbox process alone, after GC)`, ours: perCustomer, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: '≤ 1024 bytes', met: perCustomer <= 1024 },
      { name: `Resident memory per stored payment, once idle (${count} payments with their session, idempotency record and events)`, ours: perPayment, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: '≤ 4096 bytes', met: perPayment <= 4096 },
    ];
  } finally {
    await probe.stop();
  }
}
