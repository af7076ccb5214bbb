import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How many matched keys `matches` keeps the digest of: more than the merchants a sandbox usually serves at once. */
const VERIFIED_KEYS = 1_000;

/** What `check()` digests: a fixed label, so the check value identifies the pepper and nothing else. */
const CHECK_LABEL = 'switchyard secret-key pepper check';

/**
 * Merchant secret keys are never stored: only HMAC-SHA256(pepper, key), hex. The pepper is a
 * server-side key that is not kept next to the digests unless nothing else can keep it (see
 * docs/deploy.md, "Secrets at rest"), so a copy of the merchants table alone gives no way to
 * test guesses of a key.
 */
export class SecretKeyDigests {
  private readonly pepper: Buffer;
  /** Digests of secret keys that matched a merchant, by key, oldest first. */
  private readonly verified = new Map<string, string>();

  constructor(pepper: string) {
    this.pepper = Buffer.from(pepper, 'utf8');
  }

  digest(secretKey: string): string {
    return createHmac('sha256', this.pepper).update(secretKey, 'utf8').digest('hex');
  }

  /**
   * Compares in constant time; both sides are 32-byte digests whatever the key's length. The
   * digests of keys that matched are kept (`VERIFIED_KEYS` at most, the oldest dropped): an HMAC
   * was 5 % of an authenticated request, and a client sends the same key on every request. Only
   * keys that matched a merchant are kept, so guesses cannot fill the map, and a kept digest is
   * still compared with the digest stored now, so a rotated key is refused as before. That
   * comparison is of text: its time could only tell how much of the stored digest a digest under
   * the secret pepper shares, which no caller can steer.
   */
  matches(storedDigest: string, givenKey: string): boolean {
    const kept = this.verified.get(givenKey);
    if (kept !== undefined) return kept === storedDigest;
    const stored = Buffer.from(storedDigest, 'hex');
    const given = createHmac('sha256', this.pepper).update(givenKey, 'utf8').digest();
    const matched = stored.length === given.length && timingSafeEqual(stored, given);
    if (matched) {
      if (this.verified.size >= VERIFIED_KEYS) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(givenKey, storedDigest);
    }
    return matched;
  }

  /** Identifies the pepper without revealing it: lets a process find out it was given another one. */
  check(): string {
    return this.digest(CHECK_LABEL);
  }
}

/** A fresh pepper: 32 random bytes, hex. */
export const generatePepper = (): string => randomBytes(32).toString('hex');
