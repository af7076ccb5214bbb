import { describe, expect, it } from 'vitest';
import type { DomainError } from '../domain/errors.js';
import type { Store } from '../store/types.js';
import { raw } from '../test-support/harness.js';
import { sandboxOn, storesUnderTest } from '../test-support/stores.js';
import { DEFAULT_LIMITS } from '../tenant-limits.js';
import { MerchantQuota } from './merchant-quota.js';

/** A store that holds `n` merchants, as far as the quota asks. */
const holding = (n: () => number) => ({ listMerchantIds: async () => Array.from({ length: n() }, (_, i) => `m${i}`) }) as unknown as Store;

const codeOf = (p: Promise<unknown>) => p.then(() => 'taken', (e: unknown) => (e as DomainError).code);

describe('MerchantQuota', () => {
  it('takes at most the hourly bound in any hour, and again as the oldest creations leave the hour', async () => {
    let now = 0;
    const quota = new MerchantQuota({ merchantsPerHour: 3, merchantsTotal: 100 }, () => now);
    const store = holding(() => 0);
    for (let i = 0; i < 3; i += 1) {
      expect(await codeOf(quota.take(store))).toBe('taken');
      now += 60_000;
    }
    expect(await codeOf(quota.take(store))).toBe('TOO_MANY_REQUESTS');
    now = 3600_000; // the first creation is an hour old
    expect(await codeOf(quota.take(store))).toBe('taken');
    expect(await codeOf(quota.take(store))).toBe('TOO_MANY_REQUESTS');
  });

  it('refuses past the total the store holds', async () => {
    let held = 4;
    const quota = new MerchantQuota({ merchantsPerHour: 100, merchantsTotal: 5 });
    expect(await codeOf(quota.take(holding(() => held)))).toBe('taken');
    held = 5;
    expect(await codeOf(quota.take(holding(() => held)))).toBe('INVALID_STATE');
  });
});

describe.each(storesUnderTest('merchant-quota.test.ts'))('merchant creation caps on the $name store', (store) => {
  const sb = sandboxOn(store, { limits: { ...DEFAULT_LIMITS, merchantsPerHour: 3 } });

  it('answers 429 TOO_MANY_REQUESTS past the hourly bound, in the error shape, naming the setting', async () => {
    const create = () => raw(sb.url, '/sandbox/merchants', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await create());
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429, 429]);
    expect(answers[3]?.body).toMatchObject({ code: 'TOO_MANY_REQUESTS', messages: [expect.stringContaining('SANDBOX_MAX_MERCHANTS_PER_HOUR')] });
  });
});
