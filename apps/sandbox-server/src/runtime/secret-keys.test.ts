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

  it('answers a key it matched before against the digest stored now: a rotated key is refused', () => {
    const digests = new SecretKeyDigests(generatePepper());
    const before = digests.digest('sandbox_sk_old');
    expect(digests.matches(before, 'sandbox_sk_old')).toBe(true);
    expect(digests.matches(before, 'sandbox_sk_old')).toBe(true);
    const after = digests.digest('sandbox_sk_new');
    expect(digests.matches(after, 'sandbox_sk_old')).toBe(false);
    expect(digests.matches(after, 'sandbox_sk_new')).toBe(true);
  });

  it('still matches every key after more matched keys than it keeps digests of', () => {
    const digests = new SecretKeyDigests(generatePepper());
    const stored = Array.from({ length: 1_500 }, (_, i) => [digests.digest(`sandbox_sk_${i}`), `sandbox_sk_${i}`] as const);
    for (const [digest, key] of stored) expect(digests.matches(digest, key)).toBe(true);
    for (const [digest, key] of stored) {
      expect(digests.matches(digest, key)).toBe(true);
      expect(digests.matches(digest, `${key}x`)).toBe(false);
    }
  });
});
