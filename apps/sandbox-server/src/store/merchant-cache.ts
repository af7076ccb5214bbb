import type { MerchantRecord } from './types.js';

/** Merchants one process keeps; past it the least recently read goes (a fleet of CI merchants, one per job). */
const MAX_MERCHANTS = 10_000;
/**
 * How long a kept merchant answers authentication before it is read again. Transactions check
 * the record they act on whatever its age (`Store.withCheckedTransaction`), and errors answered
 * without one check it too; this bounds how old it may be for what neither covers (docs/scaling.md).
 */
const FRESH_FOR_MS = 1_000;

interface Kept {
  record: MerchantRecord;
  readAtMs: number;
}

/**
 * The PostgreSQL store's merchants by public key, and the version of the row each record was
 * read at. A public key and the secret key's digest never change, so a kept record always
 * authenticates rightly; what may have changed since is the clock offset, the accounts and the
 * fault-rule mark, which a checked transaction compares by version. Saves authentication its
 * round trip to the database: one of the two a `POST /v1/customers` made.
 */
export class MerchantCache {
  private readonly byKey = new Map<string, Kept>();
  private readonly versions = new WeakMap<MerchantRecord, string>();

  constructor(
    private readonly nowMs: () => number = Date.now,
    private readonly max = MAX_MERCHANTS,
  ) {}

  /** The kept record for the key, unless it is older than `FRESH_FOR_MS`. */
  get(publicKey: string): MerchantRecord | undefined {
    const kept = this.byKey.get(publicKey);
    if (!kept) return undefined;
    if (this.nowMs() - kept.readAtMs > FRESH_FOR_MS) {
      this.byKey.delete(publicKey);
      return undefined;
    }
    // Most recently read last: the first key is the one to drop.
    this.byKey.delete(publicKey);
    this.byKey.set(publicKey, kept);
    return kept.record;
  }

  /** Keeps the record as the merchant's newest, read at `version`; answers it. */
  keep(record: MerchantRecord, version: string): MerchantRecord {
    this.versions.set(record, version);
    this.byKey.delete(record.public_api_key);
    this.byKey.set(record.public_api_key, { record, readAtMs: this.nowMs() });
    if (this.byKey.size > this.max) {
      const oldest = this.byKey.keys().next().value;
      if (oldest !== undefined) this.byKey.delete(oldest);
    }
    return record;
  }

  /** The version a record this cache kept was read at; undefined for a record from elsewhere. */
  versionOf(record: MerchantRecord): string | undefined {
    return this.versions.get(record);
  }
}
