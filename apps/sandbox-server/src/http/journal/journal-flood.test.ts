import { describe, expect, it } from 'vitest';
import { collector } from '../../test-support/gc.js';
import { keysOf, newMerchant, raw } from '../../test-support/harness.js';
import { sandboxOn, storesUnderTest } from '../../test-support/stores.js';
import { JOURNAL_BODY_BYTES } from './journal-recorder.js';


const REQUESTS = 20;
/**
 * Each body: a `metadata` of 60,000 empty objects (180 KB of JSON), which the API refuses once
 * parsed (under the parse bound, MAX_JSON_TOKENS, so it does reach the journal).
 */
const FLOOD_BODY = `{"merchant_customer_id":"flood","metadata":[${Array.from({ length: 60_000 }, () => '{}').join(',')}]}`;

describe.each(storesUnderTest('journal-flood.test.ts'))('the journal under a flood of rejected requests on the $name store', (store) => {
  const sb = sandboxOn(store);

  it('keeps the memory of the journal within its budget per entry (measured on the heap)', async () => {
    const gc = collector();
    const merchant = await newMerchant(sb.url);
    const headers = { ...keysOf(merchant), 'content-type': 'application/json' };
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < REQUESTS; i += 1) {
      const res = await raw(sb.url, '/v1/customers', { method: 'POST', headers, body: FLOOD_BODY });
      expect(res.status).toBe(400);
    }
    const journal = await raw(sb.url, '/sandbox/requests', { headers: keysOf(merchant) });
    const entries = journal.body as unknown as { request_body: unknown }[];
    expect(entries).toHaveLength(REQUESTS);
    for (const entry of entries) expect(entry.request_body).toMatch(/^\[body over \d+ bytes of memory, not kept\]$/);
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    console.info(`${REQUESTS} rejected requests of 60,000 {} each (${store.name}): heap grew ${grownMb.toFixed(1)} MB`);
    // Two bodies per entry at the budget, and room for the sandbox's own caches and the test's client.
    expect(grownMb).toBeLessThan((REQUESTS * 2 * JOURNAL_BODY_BYTES) / 1024 / 1024 + 16);
  });
});
