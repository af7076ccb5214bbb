import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

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

  constructor(pepper: string) {
    this.pepper = Buffer.from(pepper, 'utf8');
  }

  digest(secretKey: string): string {
    return createHmac('sha256', this.pepper).update(secretKey, 'utf8').digest('hex');
  }

  /** Compares in constant time; both sides are 32-byte digests whatever the key's length. */
  matches(storedDigest: string, givenKey: string): boolean {
    const stored = Buffer.from(storedDigest, 'hex');
    const given = createHmac('sha256', this.pepper).update(givenKey, 'utf8').digest();
    return stored.length === given.length && timingSafeEqual(stored, given);
  }

  /** Identifies the pepper without revealing it: lets a process find out it was given another one. */
  check(): string {
    return this.digest(CHECK_LABEL);
  }
}

/** A fresh pepper: 32 random bytes, hex. */
export const generatePepper = (): string => randomBytes(32).toString('hex');
