import { isDeepStrictEqual } from 'node:util';
import { SecretKeyDigests, generatePepper } from '../runtime/secret-keys.js';
import type { MerchantTables } from './memory-tables.js';
import { MemoryCeiling } from './memory-ceiling.js';
import { MemoryTransaction } from './memory-transaction.js';
import { RecordCompactor, type Compaction } from './record-compactor.js';
import { KeyedMutex } from '../runtime/mutex.js';
import { MerchantChanged, PUBLIC_HANDLE_KINDS, UniqueViolation, type MerchantRecord, type RecordKind, type Store, type Tx } from './types.js';

/** The key under which `located` notes the merchant that last wrote a public handle. */
const locatedKey = (kind: RecordKind, uniqueKey: string) => `${kind}\u001f${uniqueKey}`;

/**
 * The embedded default store. Transactions of one merchant are serialised by a lock (more than
 * the Store contract asks: PostgreSQL runs those that touch different records side by side; one
 * process has no second core to run them on anyway) and write to
 * a private overlay that is applied only on commit, so a failed request leaves nothing behind
 * and readers never see half a change. Unique keys are indexed, so checks cost the same with a
 * million records as with ten. Values are deep-copied in and out: callers cannot mutate stored
 * state by accident.
 */
export class MemoryStore implements Store {
  /** Nothing outlives the process, so without a pepper given a random one does. */
  readonly secretKeys: SecretKeyDigests;
  private readonly merchants = new Map<string, MerchantRecord>();
  /**
   * The stored record each copy `getMerchant` handed out was made from. Every change stores a new
   * record, so a copy whose source is still the stored one is current without comparing every
   * field (a deep comparison was 2 % of a `POST /v1/customers`); any other record is compared.
   */
  private readonly copiedFrom = new WeakMap<MerchantRecord, MerchantRecord>();
  private readonly byPublicKey = new Map<string, string>();
  private readonly data = new Map<string, MerchantTables>();
  private readonly locks = new KeyedMutex();
  /**
   * The merchant that last wrote each unique key of the kinds found across merchants by their
   * public handle (`locate`): a hosted checkout page or a payer page reads one merchant's
   * tables, not every merchant's.
   */
  private readonly located = new Map<string, string>();

  /** Past it, transactions that add records are refused (memory-ceiling.ts); a merchant, a few hundred bytes, never is. */
  private readonly ceiling: MemoryCeiling;

  /** Compresses stored records between requests (record-compactor.ts). */
  private readonly compactor: RecordCompactor;

  constructor(options: { secretKeyPepper?: string; ceiling?: MemoryCeiling; compaction?: Compaction } = {}) {
    this.secretKeys = new SecretKeyDigests(options.secretKeyPepper ?? generatePepper());
    this.ceiling = options.ceiling ?? new MemoryCeiling();
    this.compactor = new RecordCompactor(options.compaction);
  }

  /** Compacts every record still waiting for it now: memory is then as small as the data makes it. */
  compactNow(): void {
    this.compactor.flush();
  }

  /** Bytes the compacted records take outside V8's heap, with the holes freed ones left (at most about as many again). */
  get offHeapBytes(): number {
    return this.compactor.offHeapBytes;
  }

  /** Records written but not compacted yet: work the store still does between requests. */
  get compactionQueued(): number {
    return this.compactor.queued;
  }

  async withTransaction<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.locks.run(merchantId, async () => {
      const transaction = new MemoryTransaction(this.tablesOf(merchantId), this.ceiling, this.compactor);
      const result = await fn(transaction.tx);
      this.checkPublicHandles(merchantId, transaction);
      transaction.commit((kind, uniqueKey) => {
        if (PUBLIC_HANDLE_KINDS.has(kind)) this.located.set(locatedKey(kind, uniqueKey), merchantId);
      });
      return result;
    });
  }

  // Every transaction of a merchant runs alone here: `alone` changes nothing.
  withCheckedTransaction<T>(merchant: MerchantRecord, fn: (tx: Tx) => Promise<T>, current: () => void): Promise<T> {
    return this.withTransaction(merchant.id, async (tx) => {
      // Under the merchant's lock, which updateMerchant takes too: the record stays as compared until the end.
      const stored = this.merchants.get(merchant.id);
      if (this.copiedFrom.get(merchant) !== stored && !isDeepStrictEqual(stored, merchant)) throw new MerchantChanged(merchant.id);
      current();
      return fn(tx);
    });
  }

  async withTransactionAlone<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    // Every transaction of a merchant already runs alone here.
    return this.withTransaction(merchantId, fn);
  }

  /**
   * A public handle (`PUBLIC_HANDLE_KINDS`) another merchant holds fails the transaction, checked
   * at its commit with nothing awaited until the writes are applied, so of two merchants' commits
   * that take one key only the first succeeds (as the unique index does on PostgreSQL). A handle
   * has one holder at most, noted in `located`, so the check reads that one merchant's table.
   */
  private checkPublicHandles(merchantId: string, transaction: MemoryTransaction): void {
    for (const [kind, uniqueKey] of transaction.stagedKeys(PUBLIC_HANDLE_KINDS)) {
      const holder = this.located.get(locatedKey(kind, uniqueKey));
      if (holder !== undefined && holder !== merchantId && this.data.get(holder)?.get(kind)?.unique.has(uniqueKey)) throw new UniqueViolation(kind, uniqueKey);
    }
  }

  async locate<T>(kind: RecordKind, uniqueKey: string) {
    // A public handle has one holder at most (checkPublicHandles), the merchant that last wrote it:
    // found there, or nowhere, without looking through every merchant.
    if (PUBLIC_HANDLE_KINDS.has(kind)) {
      const merchantId = this.located.get(locatedKey(kind, uniqueKey));
      return merchantId === undefined ? undefined : this.lookUp<T>(merchantId, kind, uniqueKey);
    }
    for (const merchantId of this.data.keys()) {
      const found = this.lookUp<T>(merchantId, kind, uniqueKey);
      if (found) return found;
    }
    return undefined;
  }

  private lookUp<T>(merchantId: string, kind: RecordKind, uniqueKey: string): { merchantId: string; data: T } | undefined {
    const table = this.data.get(merchantId)?.get(kind);
    const id = table?.unique.get(uniqueKey);
    const json = id === undefined ? undefined : table?.records.get(id);
    return json === undefined ? undefined : { merchantId, data: JSON.parse(this.compactor.text(json)) as T };
  }

  /** Merchants are flat records (one array): a shallow copy isolates them. */
  async getMerchant(id: string) {
    const m = this.merchants.get(id);
    if (!m) return undefined;
    const copy = { ...m, account_ids: [...m.account_ids] };
    this.copiedFrom.set(copy, m);
    return copy;
  }

  async findMerchantByPublicKey(publicKey: string) {
    const id = this.byPublicKey.get(publicKey);
    return id ? this.getMerchant(id) : undefined;
  }

  private keepMerchant(merchant: MerchantRecord) {
    this.merchants.set(merchant.id, { ...merchant, account_ids: [...merchant.account_ids] });
    this.byPublicKey.set(merchant.public_api_key, merchant.id);
  }

  async putMerchantIfAbsent(merchant: MerchantRecord) {
    // As PostgreSQL's unique id and public key: either taken means present. No await before the
    // put, so the check and the write are one step.
    if (this.merchants.has(merchant.id) || this.byPublicKey.has(merchant.public_api_key)) return false;
    this.keepMerchant(merchant);
    return true;
  }

  async listMerchantIds() {
    return [...this.merchants.keys()];
  }

  async updateMerchant(id: string, change: (m: MerchantRecord) => MerchantRecord) {
    return this.locks.run(id, async () => {
      const current = this.merchants.get(id);
      if (!current) return undefined;
      const next = change({ ...current, account_ids: [...current.account_ids] });
      this.keepMerchant(next);
      return { ...next, account_ids: [...next.account_ids] };
    });
  }

  async resetMerchant(merchantId: string) {
    return this.locks.run(merchantId, async () => {
      let count = 0;
      for (const table of this.data.get(merchantId)?.values() ?? []) {
        count += table.records.size;
        for (const stored of table.records.values()) this.compactor.released(stored);
        // Emptied as well as dropped: the compactor's queue may still name these records, and
        // must find nothing there to move out of the heap (it would hold slab bytes forever).
        table.records.clear();
      }
      this.data.delete(merchantId);
      return count;
    });
  }

  async ready() {
    return true;
  }

  async close() {
    this.compactor.stop();
  }

  private tablesOf(merchantId: string): MerchantTables {
    let tables = this.data.get(merchantId);
    if (!tables) {
      tables = new Map();
      this.data.set(merchantId, tables);
    }
    return tables;
  }
}
