import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory.js';
import { merchantRecord } from '../../test-support/merchant-record.js';
import { RequestStore } from './request-store.js';

/** A response's locals as authentication leaves them: the merchant, not yet known to be current. */
function authenticated(merchant = merchantRecord('m1')): Response {
  return { locals: { merchant } } as unknown as Response;
}

describe('RequestStore', () => {
  it('after the request changes its own merchant, the request holds the changed record and checks nothing more', async () => {
    const store = new MemoryStore();
    await store.putMerchantIfAbsent(merchantRecord('m1'));
    const res = authenticated();
    const updated = await new RequestStore(store, res).updateMerchant('m1', (m) => ({ ...m, clock_offset_seconds: 3600 }));
    expect(updated?.clock_offset_seconds).toBe(3600);
    expect(res.locals.merchant).toEqual(updated);
    expect(res.locals.merchantCurrent).toBe(true);
  });

  it("a change of another merchant leaves the request's record and its checks as they were", async () => {
    const store = new MemoryStore();
    await store.putMerchantIfAbsent(merchantRecord('m1'));
    await store.putMerchantIfAbsent(merchantRecord('m2'));
    const res = authenticated();
    await new RequestStore(store, res).updateMerchant('m2', (m) => ({ ...m, clock_offset_seconds: 60 }));
    expect(res.locals.merchant).toEqual(merchantRecord('m1'));
    expect(res.locals.merchantCurrent).toBeUndefined();
  });
});
