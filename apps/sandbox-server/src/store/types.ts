import type { SecretKeyDigests } from '../runtime/secret-keys.js';
import type { DueLane } from '../domain/due-work.js';
import type { RecordKind } from '../domain/record-kind.js';

export type { RecordKind };

/**
 * The storage boundary. Everything the sandbox keeps goes through an async, transactional
 * interface so the memory store and PostgreSQL obey the same rules: a transaction sees its own
 * writes and commits all of them or none. Transactions of one merchant run one at a time only
 * where they meet: a record a transaction reads (`get`, `getByUniqueKey`, each record `listDue`
 * returns) or deletes is its own until it ends — also a record it found absent, so "create it
 * unless it exists" holds — and so is a name it locks (`lock`). Everything else of the merchant
 * goes on beside it (docs/scaling.md). A store may serialise more (the memory store runs a
 * merchant's transactions one at a time), never less.
 */

export interface MerchantRecord {
  id: string;
  name: string;
  public_api_key: string;
  /** HMAC-SHA256 of the private secret key under the store's pepper (`Store.secretKeys`); never the key. A rotation replaces it (`updateMerchant`). */
  secret_key_digest: string;
  account_ids: string[];
  /** Keys the card fingerprint so it is stable per merchant and number, and useless elsewhere. */
  fingerprint_key: string;
  clock_offset_seconds: number;
  created_at: string;
  /**
   * Set while the merchant may hold fault rules: the faults middleware reads rules only for such
   * merchants, so every other request costs no store transaction. Set after a rule is stored,
   * cleared when the last one goes (app/faults.ts).
   */
  fault_rules_used?: true;
  /** How many times `fault_rules_used` was set: clearing it checks that no rule was stored meanwhile. */
  fault_rules_marks?: number;
}

/** A stored record with the id and unique key it is kept under. */
export interface StoredEntry<T> {
  id: string;
  unique_key: string | null;
  data: T;
}

/**
 * Fields a store indexes, by kind of record, for `Tx.newestBy`: each holds a string set when the
 * record is created and never changed afterwards (a payment's subscription). PostgreSQL keeps an
 * expression index of each (migration 4); the memory store a list of ids per value.
 */
export const INDEXED_FIELDS = { payment: ['subscription_id'] } as const;
export type IndexedKind = keyof typeof INDEXED_FIELDS;
export type IndexedField<K extends IndexedKind> = (typeof INDEXED_FIELDS)[K][number];

/** The newest records of one kind, newest first, and how many of the kind there are in all. */
export interface Newest<T> {
  total: number;
  items: T[];
}

export interface Tx {
  /** Reads a record, and holds it (present or not) until the transaction ends. */
  get<T>(kind: RecordKind, id: string): Promise<T | undefined>;
  /** Finds a record by its secondary unique key, holding the key and the record until the transaction ends. */
  getByUniqueKey<T>(kind: RecordKind, uniqueKey: string): Promise<T | undefined>;
  /**
   * Inserts or replaces. A different record holding the same unique key makes the put throw
   * `UniqueViolation`, which rolls the transaction back.
   */
  put<T>(kind: RecordKind, id: string, data: T, uniqueKey?: string): Promise<void>;
  /**
   * Puts a record under a unique key, like `put`, where another record holding the key makes the
   * transaction fail with `UniqueViolation` no earlier than the next read of the kind or the
   * commit (both stores check it there): unlike with `put`, a caller cannot catch it and go on.
   * This lets PostgreSQL send it with the statements after it instead of waiting for its answer
   * (docs/scaling.md); meant for new records, whose clash is the request's error.
   */
  create<T>(kind: RecordKind, id: string, data: T, uniqueKey: string): Promise<void>;
  delete(kind: RecordKind, id: string): Promise<void>;
  /** All records of a kind, in insertion order; holds none of them (a rule over the set takes `lock`). */
  list<T>(kind: RecordKind): Promise<T[]>;
  /** The first `limit` records of a kind, in insertion order, with their ids and unique keys (what a snapshot keeps). */
  listEntries<T>(kind: RecordKind, limit: number): Promise<StoredEntry<T>[]>;
  /**
   * The last `limit` records of a kind in insertion order, newest first, and the exact count of
   * the kind; holds none of them. Reads `limit` records whatever the merchant holds; the count
   * reads none (PostgreSQL counts index entries, the memory store keeps it).
   */
  newest<T>(kind: RecordKind, limit: number): Promise<Newest<T>>;
  /**
   * For each of `values`, the last `limit` records of `kind` (in insertion order) whose indexed
   * `field` holds it, newest first; holds none of them. Found through the field's index: no other
   * record of the kind is read.
   */
  newestBy<T, K extends IndexedKind = IndexedKind>(kind: K, field: IndexedField<K>, values: readonly string[], limit: number): Promise<T[][]>;
  /**
   * Holds the merchant's lock called `name` until the transaction ends: for a rule over a set of
   * records (no two webhooks alike), which no single record read can hold.
   */
  lock(name: string): Promise<void>;
  /**
   * Records of a kind whose work in `lane` is due at or before `untilMs` (`dueOf`, computed on
   * every put), earliest first, at most `limit`: how the clock finds due work without reading
   * everything a merchant has. Each record returned is held, and was still due once held, so two
   * replicas never both take the same due work.
   */
  listDue<T>(kind: RecordKind, lane: DueLane, untilMs: number, limit: number): Promise<T[]>;
  /** Deletes the records `listDue` would list (retention, in one statement); returns how many went. */
  deleteDue(kind: RecordKind, lane: DueLane, untilMs: number, limit: number): Promise<number>;
}

/**
 * Kinds whose unique key is a public handle (a payment link's code, a payer page's or a checkout
 * session's id in a URL): the hosted pages find it across merchants (`Store.locate`), so no two
 * merchants may hold one key. Both stores refuse it at commit (PostgreSQL: a unique index), so two
 * snapshot imports at once cannot both take a code.
 */
export const PUBLIC_HANDLE_KINDS: ReadonlySet<RecordKind> = new Set<RecordKind>(['payment_link', 'payer_page', 'checkout_session']);

export class UniqueViolation extends Error {
  constructor(
    readonly kind: RecordKind,
    readonly uniqueKey: string,
  ) {
    super(`unique key ${uniqueKey} of ${kind} is taken`);
    this.name = 'UniqueViolation';
  }
}

/**
 * A checked transaction's merchant record is no longer the merchant's current one (another
 * request or replica changed its clock, accounts or fault rules since it was read): nothing of
 * the transaction was written. The caller reads the merchant again and starts over.
 */
export class MerchantChanged extends Error {
  constructor(readonly merchantId: string) {
    super(`merchant ${merchantId} changed since it was read`);
    this.name = 'MerchantChanged';
  }
}

export interface Store {
  /** Digests merchant secret keys with the pepper this store's data was digested with. */
  readonly secretKeys: SecretKeyDigests;
  /**
   * Runs `fn` in one transaction of `merchantId`'s data; commits when it resolves, rolls back when
   * it throws. A store may run `fn` again, from the start, when the database ends the transaction
   * to break a deadlock between two of them: `fn` only reads and writes through `tx` and makes ids.
   */
  withTransaction<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * As `withTransaction`, while no other transaction of the merchant runs (as `updateMerchant`):
   * for what reads or replaces the merchant's records as a whole. A snapshot's export sees one
   * state of every kind (no transaction commits between two kinds' reads), and two imports never
   * interleave. It waits for the merchant's open transactions, and those begun meanwhile wait for it.
   */
  withTransactionAlone<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * As `withTransaction` of `merchant.id` (`withTransactionAlone` when `alone`), for a caller
   * acting on `merchant` as the store gave it earlier (`findMerchantByPublicKey` may answer from
   * a cache): checked against the merchant's current record together with the transaction's
   * first statement, and the transaction holds the merchant's lock, so the record cannot change
   * before it ends. When the record changed it throws `MerchantChanged` and writes nothing; when
   * the check passed it calls `current` (a transaction that reads and writes nothing checks nothing).
   */
  withCheckedTransaction<T>(merchant: MerchantRecord, fn: (tx: Tx) => Promise<T>, current: () => void, alone?: boolean): Promise<T>;
  /** The merchant's current record, read from the store itself (never from a cache). */
  getMerchant(id: string): Promise<MerchantRecord | undefined>;
  /** Finds a record by unique key across merchants (public handles such as payment link codes). */
  locate<T>(kind: RecordKind, uniqueKey: string): Promise<{ merchantId: string; data: T } | undefined>;
  /**
   * The merchant holding the public key, which never changes. A store may answer from a cache:
   * the record may then be older than the merchant's current one, also in its secret key's
   * digest (a rotation), which `withCheckedTransaction` finds out, as `getMerchant` does.
   */
  findMerchantByPublicKey(publicKey: string): Promise<MerchantRecord | undefined>;
  /**
   * Stores the merchant only when neither its id nor its public key is taken, atomically: replicas
   * seeding the same merchant keep the first record, and no tenant is ever overwritten. True when stored.
   */
  putMerchantIfAbsent(merchant: MerchantRecord): Promise<boolean>;
  /** Changes a merchant atomically, while no transaction of the merchant runs; undefined when unknown. */
  updateMerchant(id: string, change: (m: MerchantRecord) => MerchantRecord): Promise<MerchantRecord | undefined>;
  /** Ids of every merchant. */
  listMerchantIds(): Promise<string[]>;
  /** Deletes every record of the merchant (keeps the merchant itself), while no transaction of it runs; returns how many went. */
  resetMerchant(merchantId: string): Promise<number>;
  /** True when the store can serve requests. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
