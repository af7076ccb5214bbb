import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Makes the ids of one merchant. */
export interface IdSource {
  uuid(): string;
  /** `prefix` + `length` lower-case alphanumerics, e.g. `acct_` ids. */
  token(prefix: string, length: number): string;
  /** `length` bytes, for ids and keys in formats of their own (hex, base64url). */
  bytes(length: number): Buffer;
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

function formatUuidV4(bytes: Uint8Array): string {
  const b = Uint8Array.from(bytes.subarray(0, 16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The namespace of the sandbox's name-based ids (RFC 9562 §5.5): a fixed, random UUID of its own. */
const NAME_NAMESPACE = Buffer.from('6d0c2a5e9b7f4c1d8e3a5b7c9d1e2f30', 'hex');

/**
 * A version 5 (name-based, SHA-1) UUID: the same name always gives the same id, so an id that
 * belongs to something the sandbox does not store (an account's default checkout) is stable.
 */
export function nameBasedUuid(name: string): string {
  const b = createHash('sha1').update(NAME_NAMESPACE).update(name).digest().subarray(0, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x50;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function tokenFrom(bytes: Uint8Array, length: number): string {
  return Array.from(bytes.subarray(0, length), (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

const randomIds: IdSource = {
  uuid: () => randomUUID(),
  token: (prefix, length) => prefix + tokenFrom(randomBytes(length), length),
  bytes: (length) => randomBytes(length),
};

/**
 * Deterministic ids for snapshot tests: a counter per merchant hashed with the seed, so one
 * merchant's ids do not depend on what other merchants do.
 */
class SeededIds implements IdSource {
  private counter = 0;
  constructor(private readonly seed: string) {}

  private next(): Buffer {
    this.counter += 1;
    return createHash('sha256').update(`${this.seed}:${this.counter}`).digest();
  }

  uuid() {
    return formatUuidV4(this.next());
  }

  token(prefix: string, length: number) {
    const bytes = Buffer.concat([this.next(), this.next()]);
    return prefix + tokenFrom(bytes, length);
  }

  bytes(length: number) {
    const blocks: Buffer[] = [];
    for (let n = 0; n < length; n += 32) blocks.push(this.next());
    return Buffer.concat(blocks).subarray(0, length);
  }
}

/** Hands out the id source of each merchant: random, or seeded per merchant when a seed is set. */
export class IdFactory {
  private readonly seeded = new Map<string, SeededIds>();
  private newMerchants: IdSource | undefined;
  constructor(private readonly seed: string | undefined) {}

  /**
   * The ids and keys of merchants created through the control API: with a seed, the n-th merchant
   * created after start gets the same ones on every run. Its stream hashes `seed#merchants`, which
   * never equals a merchant's `seed:id` (they differ right after the seed).
   */
  forNewMerchants(): IdSource {
    if (this.seed === undefined) return randomIds;
    this.newMerchants ??= new SeededIds(`${this.seed}#merchants`);
    return this.newMerchants;
  }

  /** The key a merchant's card fingerprints are hashed with: derived from the seed and the merchant id when seeded. */
  fingerprintKey(merchantId: string): string {
    if (this.seed === undefined) return randomBytes(32).toString('hex');
    return createHash('sha256').update(`${this.seed}:fingerprint:${merchantId}`).digest('hex');
  }

  for(scope: string): IdSource {
    if (this.seed === undefined) return randomIds;
    let ids = this.seeded.get(scope);
    if (!ids) {
      ids = new SeededIds(`${this.seed}:${scope}`);
      this.seeded.set(scope, ids);
    }
    return ids;
  }
}
