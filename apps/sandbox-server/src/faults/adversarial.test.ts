import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { clientsFor, keysOf, newMerchant, raw } from '../test-support/harness.js';
import { sandboxOn, storesUnderTest } from '../test-support/stores.js';

/** The attack: 50 rules (the most a merchant may have) whose pattern backtracks on a long run of `a`. */
const RULES = 50;
const PATTERN = `/v1/customers/*${'a'.repeat(184)}b`;
const SEGMENT = 'a'.repeat(15_000);

describe.each(storesUnderTest('adversarial.test.ts'))('adversarial fault-rule patterns on the $name store', (store) => {
  const sb = sandboxOn(store);

  it('answers 8 concurrent requests with a 15,000-character segment against 50 backtracking patterns without blocking the event loop', async () => {
    const merchant = await newMerchant(sb.url);
    const clients = clientsFor(sb.url, merchant);
    for (let i = 0; i < RULES; i += 1) {
      const created = await clients.sandbox.createFaultRule({ body: { match: { path: PATTERN }, effect: { type: 'status', status: 503 } } });
      expect(created.status).toBe(201);
    }
    // The sandbox runs in this process: its event loop is the one measured.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const answers = await Promise.all(Array.from({ length: 8 }, () => raw(sb.url, `/v1/customers/${SEGMENT}`, { headers: keysOf(merchant) })));
    delay.disable();
    // No rule matched (the path has no `b`): every request reached its route.
    for (const res of answers) expect(res.status).not.toBe(503);
    const maxMs = delay.max / 1e6;
    console.info(`8 requests × 50 adversarial rules (${store.name}): longest event-loop block ${maxMs.toFixed(1)} ms`);
    // A generous bound for a loaded machine; the backtracking walk blocked it for 29 s here.
    expect(maxMs).toBeLessThan(1_000);
  });
});
