import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretKeyDigests, generatePepper } from './secret-keys.js';

describe('secret key digests', () => {
  const keys = new SecretKeyDigests('a-pepper-of-enough-length-for-a-test');

  it('is HMAC-SHA256 of the key under the pepper, never the key itself', () => {
    const digest = keys.digest('sandbox_sk_abc');
    expect(digest).toBe(createHmac('sha256', 'a-pepper-of-enough-length-for-a-test').update('sandbox_sk_abc').digest('hex'));
    expect(digest).not.toContain('sandbox_sk_abc');
  });

  it('matches the right key only, whatever the length of the one given', () => {
    const digest = keys.digest('sandbox_sk_abc');
    expect(keys.matches(digest, 'sandbox_sk_abc')).toBe(true);
    for (const wrong of ['sandbox_sk_abd', '', 'sandbox_sk_abc ', 'x'.repeat(10_000)]) expect(keys.matches(digest, wrong)).toBe(false);
    expect(keys.matches('not-hex', 'sandbox_sk_abc')).toBe(false);
  });

  it('gives other digests and another check under another pepper', () => {
    const other = new SecretKeyDigests(generatePepper());
    expect(other.digest('sandbox_sk_abc')).not.toBe(keys.digest('sandbox_sk_abc'));
    expect(other.matches(keys.digest('sandbox_sk_abc'), 'sandbox_sk_abc')).toBe(false);
    expect(other.check()).not.toBe(keys.check());
    expect(generatePepper()).toMatch(/^[0-9a-f]{64}$/);
  });
});
