import { fixtures } from '@switchyard/contract/fixtures';
import { DEMO_ACCOUNT, pool, post } from './demo-api.js';
import { startSandboxProbe, type Spawned } from './processes.js';
import type { Figure } from './report.js';


interface Memory {
  rss: number;
  heap: number;
  /** Times the sandbox handed memory back once requests stopped, and the pause of the last one. */
  releases: number;
  lastPauseMs: number;
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
 * Memory once the process has been idle long enough to hand back what the write load grew and no
 * longer needs: the sandbox asks for a collection that does it once requests have stopped, where
 * V8's memory reducer may wait long or never do it (on Node 24 it keeps postponing).
 * Readings are taken `intervalMs` apart (5 s in a full run) until the sandbox has done so after
 * the writes and resident memory has moved by less than 1% twice in a row, for at most 18
 * readings. This is what a sandbox that has stored the data and sits between test runs holds.
 */
async function settled(probe: Spawned, intervalMs: number, releasesBefore: number): Promise<Memory> {
  let last = await measure(probe);
  let steady = 0;
  const deadline = Date.now() + 18 * intervalMs;
  while ((steady < 2 || last.releases === releasesBefore) && Date.now() < deadline) {
    await sleep(intervalMs);
    const now = await measure(probe);
    steady = Math.abs(now.rss - last.rss) / last.rss < 0.01 ? steady + 1 : 0;
    last = now;
  }
  return last;
}

/** The pause of the collection that handed memory back between two readings, when one did. */
const pause = (when: string, from: Memory, to: Memory): Figure[] =>
  to.releases > from.releases ? [{ name: `Pause of the collection that hands memory back once requests stop, ${when}`, ours: to.lastPauseMs, baseline: null, baselineName: '', unit: 'ms', ratio: null, target: 'report', met: null }] : [];

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
    const afterCustomers = await settled(probe, settleIntervalMs, before.releases);
    await pool(count, 24, async (i) => {
      const s = await post<{ checkout_session: string }>(url, '/v1/checkout/sessions', { ...fixtures.createCheckoutSession(), account_id: DEMO_ACCOUNT });
      await post(url, '/v1/payments', { ...fixtures.createPayment(s.checkout_session), account_id: DEMO_ACCOUNT }, { 'x-idempotency-key': `mem-${i}` });
    });
    const afterPayments = await settled(probe, settleIntervalMs, afterCustomers.releases);
    const perCustomer = (afterCustomers.rss - before.rss) / count;
    const perCustomerRightAfter = (rightAfterCustomers.rss - before.rss) / count;
    const perPayment = (afterPayments.rss - afterCustomers.rss) / count;
    const heapPerCustomer = (afterCustomers.heap - before.heap) / count;
    return [
      { name: `Live heap per stored customer (${count} customers, memory store, after GC)`, ours: heapPerCustomer, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: 'report', met: null },
      { name: `Resident memory per stored customer, right after the writes (${count} customers, sandbox process alone, after GC)`, ours: perCustomerRightAfter, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: 'report', met: null },
      { name: `Resident memory per stored customer, once idle (${count} customers, sandbox process alone, after GC)`, ours: perCustomer, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: '≤ 1024 bytes', met: perCustomer <= 1024 },
      ...pause(`after ${count} customers`, before, afterCustomers),
      ...pause(`after ${count} payments`, afterCustomers, afterPayments),
      { name: `Resident memory per stored payment, once idle (${count} payments with their session, idempotency record and events)`, ours: perPayment, baseline: null, baselineName: '', unit: 'bytes', ratio: null, target: '≤ 4096 bytes', met: perPayment <= 4096 },
    ];
  } finally {
    await probe.stop();
  }
}
