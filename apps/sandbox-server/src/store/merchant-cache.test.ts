import { describe, expect, it } from 'vitest';
import { MerchantCache } from './merchant-cache.js';
import type { MerchantRecord } from './types.js';

const record = (id: string, offset = 0): MerchantRecord => ({
  id,
  name: id,
  public_api_key: `pk_${id}`,
  secret_key_digest: `digest_${id}`,
  account_ids: [],
  fingerprint_key: 'k',
  clock_offset_seconds: offset,
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('the merchant cache', () => {
  it('answers a kept record by public key for a second, with the version it was read at', () => {
    let now = 0;
    const cache = new MerchantCache(() => now);
    const kept = cache.keep(record('m1'), '100');
    expect(cache.get('pk_m1')).toBe(kept);
    expect(cache.versionOf(kept)).toBe('100');
    now = 1_000;
    expect(cache.get('pk_m1')).toBe(kept);
    now = 1_001;
    expect(cache.get('pk_m1')).toBeUndefined();
    // The version stays with the record: a request still holding it is checked by it.
    expect(cache.versionOf(kept)).toBe('100');
  });

  it('keeps the newest record of a merchant, and knows no version of a record it never kept', () => {
    const cache = new MerchantCache(() => 0);
    const old = cache.keep(record('m1'), '100');
    const newer = cache.keep(record('m1', 60), '101');
    expect(cache.get('pk_m1')).toBe(newer);
    expect(cache.versionOf(old)).toBe('100');
    expect(cache.versionOf(record('m1', 60))).toBeUndefined();
  });

  it('drops the least recently read merchant past its bound', () => {
    const cache = new MerchantCache(() => 0, 2);
    cache.keep(record('m1'), '1');
    cache.keep(record('m2'), '2');
    cache.get('pk_m1');
    cache.keep(record('m3'), '3');
    expect([cache.get('pk_m1')?.id, cache.get('pk_m2'), cache.get('pk_m3')?.id]).toEqual(['m1', undefined, 'm3']);
  });
});
