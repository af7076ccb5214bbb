import { describe, expect, it } from 'vitest';
import { IdFactory, nameBasedUuid } from './ids.js';

describe('IdFactory', () => {
  it('gives new merchants a seeded stream of their own, apart from every merchant scope', () => {
    const a = new IdFactory('s');
    const b = new IdFactory('s');
    expect(a.forNewMerchants().bytes(40).toString('hex')).toBe(b.forNewMerchants().bytes(40).toString('hex'));
    expect(new IdFactory('s').forNewMerchants().uuid()).not.toBe(new IdFactory('s').for('merchants').uuid());
  });

  it('hands out bytes of the asked length, the next ones on each call', () => {
    const ids = new IdFactory('s').forNewMerchants();
    const first = ids.bytes(70);
    expect(first).toHaveLength(70);
    expect(ids.bytes(8).equals(first.subarray(0, 8))).toBe(false);
    expect(new IdFactory(undefined).forNewMerchants().bytes(8)).toHaveLength(8);
  });

  it('derives fingerprint keys from the seed and merchant id, random without a seed', () => {
    expect(new IdFactory('s').fingerprintKey('mer_1')).toBe(new IdFactory('s').fingerprintKey('mer_1'));
    expect(new IdFactory('s').fingerprintKey('mer_1')).not.toBe(new IdFactory('s').fingerprintKey('mer_2'));
    expect(new IdFactory(undefined).fingerprintKey('mer_1')).not.toBe(new IdFactory(undefined).fingerprintKey('mer_1'));
    expect(new IdFactory(undefined).fingerprintKey('mer_1')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('derives a stable version 5 UUID from a name, a different one for another name', () => {
    expect(nameBasedUuid('checkout:a')).toBe(nameBasedUuid('checkout:a'));
    expect(nameBasedUuid('checkout:a')).not.toBe(nameBasedUuid('checkout:b'));
    expect(nameBasedUuid('checkout:a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
