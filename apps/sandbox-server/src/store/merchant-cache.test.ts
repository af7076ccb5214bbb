import { describe, expect, it } from 'vitest';
import { MerchantCache } from './merchant-cache.js';
import { merchantRecord } from '../test-support/merchant-record.js';

const record = (id: string, offset = 0) => merchantRecord(id, { clock_offset_seconds: offset });

describe('the merchant cache', () => {
  it('answers a kept record by public key for its freshness bound, with the version it was read at', () => {
    let now = 0;
    const cache = new MerchantCache(1_000, () => now);
    const kept = cache.keep(record('m1'), '100', cache.startRead());
    expect(cache.get('pk_m1')).toBe(kept);
    expect(cache.versionOf(kept)).toBe('100');
    now = 1_000;
    expect(cache.get('pk_m1')).toBe(kept);
    now = 1_001;
    expect(cache.get('pk_m1')).toBeUndefined();
    // The version stays with the record: a request still holding it is checked by it.
    expect(cache.versionOf(kept)).toBe('100');
  });

  it('keeps the record of the later-started read, whichever answer arrives last', () => {
    const cache = new MerchantCache(1_000, () => 0);
    const slow = cache.startRead();
    const change = cache.keep(record('m1', 60), '101', cache.startRead());
    const stale = cache.keep(record('m1'), '100', slow);
    expect(cache.get('pk_m1')).toBe(change);
    // The late answer still goes back to its caller, checkable by its own version.
    expect(cache.versionOf(stale)).toBe('100');
    expect(cache.versionOf(record('m1', 60))).toBeUndefined();
  });

  it('refreshes without adding when told, freezes what it answers, and drops the least recently read past its bound', () => {
    const cache = new MerchantCache(1_000, () => 0, 2);
    const swept = cache.keep(record('m0'), '1', cache.startRead(), false);
    expect(cache.get('pk_m0')).toBeUndefined();
    expect(Object.isFrozen(swept) && Object.isFrozen(swept.account_ids)).toBe(true);
    cache.keep(record('m1'), '1', cache.startRead());
    cache.keep(record('m2'), '2', cache.startRead());
    cache.get('pk_m1');
    cache.keep(record('m3'), '3', cache.startRead());
    expect([cache.get('pk_m1')?.id, cache.get('pk_m2'), cache.get('pk_m3')?.id]).toEqual(['m1', undefined, 'm3']);
  });
});
