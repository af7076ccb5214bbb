import type { MerchantRecord } from './types.js';

/** Merchants one process keeps; past it the least recently read goes (a fleet of CI merchants, one per job). */
const MAX_MERCHANTS = 10_000;
/**
 * How long a kept merchant answers authentication before it is read again. Transactions check
 * the record they act on whatever its age (`Store.withCheckedTransaction`), and refusals answered
 * without one check it too; this bounds how old it may be for what neither covers (docs/scaling.md).
 */
export const MERCHANT_FRESH_FOR_MS = 1_000;

interface Kept {
  record: MerchantRecord;
  keptAtMs: number;
  /** The number of the read it came from (`startRead`): a later-started read's record wins. */
  read: number;
}

/**
 * The PostgreSQL store's merchants by public key, and the version of the row each record was
 * read at. A public key never changes; what may have changed since the read is the secret key's
 * digest (a rotation), the clock offset, the accounts and the fault-rule mark, which a checked
 * transaction compares by version. A kept record may so authenticate a secret key rotated away
 * through another replica, for at most `MERCHANT_FRESH_FOR_MS`, and only for a request that
 * neither runs a checked transaction nor reads the merchant (docs/scaling.md, "Keys across
 * replicas"). Saves authentication its round trip to the database: the one of the two a
 * `POST /v1/customers` made.
 *
 * Records are frozen: one kept record serves many requests at once.
 */
export class MerchantCache {
  private readonly byKey = new Map<string, Kept>();
  private readonly versions = new WeakMap<MerchantRecord, string>();
  private reads = 0;

  constructor(
    private readonly freshForMs = MERCHANT_FRESH_FOR_MS,
    // Monotonic: a wall clock set back would keep records fresh for as long as it went back.
    private readonly nowMs: () => number = () => performance.now(),
    private readonly max = MAX_MERCHANTS,
  ) {}

  /** The kept record for the key, unless it is older than the freshness bound. */
  get(publicKey: string): MerchantRecord | undefined {
    const kept = this.byKey.get(publicKey);
    if (!kept) return undefined;
    this.byKey.delete(publicKey);
    if (this.nowMs() - kept.keptAtMs > this.freshForMs) return undefined;
    // Most recently read last: the first key is the one to drop.
    this.byKey.set(publicKey, kept);
    return kept.record;
  }

  /**
   * Numbers a read of a merchant about to be sent (or a change just committed): of two records
   * kept, the one from the later-started read is the newer, whichever answer arrived last.
   */
  startRead(): number {
    this.reads += 1;
    return this.reads;
  }

  /**
   * Answers the record, frozen and with its version known; keeps it unless a later-started read's
   * record is kept already. `add: false` only refreshes a merchant already kept (a sweep over
   * every merchant must not push out the ones requests use).
   */
  keep(record: MerchantRecord, version: string, read: number, add = true): MerchantRecord {
    Object.freeze(record.account_ids);
    Object.freeze(record);
    this.versions.set(record, version);
    const kept = this.byKey.get(record.public_api_key);
    if ((kept && kept.read > read) || (!kept && !add)) return record;
    this.byKey.delete(record.public_api_key);
    this.byKey.set(record.public_api_key, { record, keptAtMs: this.nowMs(), read });
    if (this.byKey.size > this.max) {
      const oldest = this.byKey.keys().next().value;
      if (oldest !== undefined) this.byKey.delete(oldest);
    }
    return record;
  }

  /** The version a record this cache answered was read at; undefined for a record from elsewhere. */
  versionOf(record: MerchantRecord): string | undefined {
    return this.versions.get(record);
  }
}
