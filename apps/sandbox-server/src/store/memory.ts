import { KeyedMutex } from './mutex.js';
import { UniqueViolation, type MerchantRecord, type RecordKind, type Store, type StoredRecord, type Tx } from './types.js';

type KindTable = Map<string, StoredRecord>;
type MerchantTables = Map<RecordKind, KindTable>;

const clone = <T>(value: T): T => structuredClone(value);

/**
 * The embedded default store. Transactions of one merchant are serialised by a lock and write to
 * a private overlay that is applied only on commit, so a failed request leaves nothing behind
 * and readers never see half a change. Values are deep-copied in and out: callers cannot mutate
 * stored state by accident.
 */
export class MemoryStore implements Store {
  private readonly merchants = new Map<string, MerchantRecord>();
  private readonly byPublicKey = new Map<string, string>();
  private readonly data = new Map<string, MerchantTables>();
  private readonly locks = new KeyedMutex();
  private seq = 0;

  async withTransaction<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.locks.run(merchantId, async () => {
      const tables = this.tablesOf(merchantId);
      const overlay = new Map<RecordKind, Map<string, StoredRecord | null>>();
      const staged = (kind: RecordKind) => {
        let m = overlay.get(kind);
        if (!m) {
          m = new Map();
          overlay.set(kind, m);
        }
        return m;
      };
      const read = (kind: RecordKind, id: string): StoredRecord | undefined => {
        const s = overlay.get(kind)?.get(id);
        if (s !== undefined) return s ?? undefined;
        return tables.get(kind)?.get(id);
      };
      const all = (kind: RecordKind): StoredRecord[] => {
        const merged = new Map(tables.get(kind) ?? []);
        for (const [id, rec] of overlay.get(kind) ?? []) {
          if (rec) merged.set(id, rec);
          else merged.delete(id);
        }
        return [...merged.values()].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
      };
      const tx: Tx = {
        get: async <R>(kind: RecordKind, id: string) => {
          const rec = read(kind, id);
          return rec ? clone(rec.data as R) : undefined;
        },
        getByUniqueKey: async <R>(kind: RecordKind, uniqueKey: string) => {
          const rec = all(kind).find((r) => r.unique_key === uniqueKey);
          return rec ? clone(rec.data as R) : undefined;
        },
        put: async (kind, id, value, uniqueKey) => {
          if (uniqueKey !== undefined) {
            const holder = all(kind).find((r) => r.unique_key === uniqueKey);
            if (holder && holder.id !== id) throw new UniqueViolation(kind, uniqueKey);
          }
          const existing = read(kind, id);
          staged(kind).set(id, { id, unique_key: uniqueKey, seq: existing?.seq ?? ++this.seq, data: clone(value) });
        },
        delete: async (kind, id) => {
          staged(kind).set(id, null);
        },
        list: async <R>(kind: RecordKind) => all(kind).map((r) => clone(r.data as R)),
      };
      const result = await fn(tx);
      for (const [kind, changes] of overlay) {
        let table = tables.get(kind);
        if (!table) {
          table = new Map();
          tables.set(kind, table);
        }
        for (const [id, rec] of changes) {
          if (rec) table.set(id, rec);
          else table.delete(id);
        }
      }
      return result;
    });
  }

  async locate<T>(kind: RecordKind, uniqueKey: string) {
    for (const [merchantId, tables] of this.data) {
      for (const rec of tables.get(kind)?.values() ?? []) {
        if (rec.unique_key === uniqueKey) return { merchantId, data: clone(rec.data as T) };
      }
    }
    return undefined;
  }

  async getMerchant(id: string) {
    const m = this.merchants.get(id);
    return m ? clone(m) : undefined;
  }

  async findMerchantByPublicKey(publicKey: string) {
    const id = this.byPublicKey.get(publicKey);
    return id ? this.getMerchant(id) : undefined;
  }

  async putMerchant(merchant: MerchantRecord) {
    this.merchants.set(merchant.id, clone(merchant));
    this.byPublicKey.set(merchant.public_api_key, merchant.id);
  }

  async putMerchantIfAbsent(merchant: MerchantRecord) {
    if (!this.merchants.has(merchant.id)) await this.putMerchant(merchant);
  }

  async listMerchantIds() {
    return [...this.merchants.keys()];
  }

  async updateMerchant(id: string, change: (m: MerchantRecord) => MerchantRecord) {
    return this.locks.run(id, async () => {
      const current = this.merchants.get(id);
      if (!current) return undefined;
      const next = change(clone(current));
      await this.putMerchant(next);
      return clone(next);
    });
  }

  async resetMerchant(merchantId: string) {
    return this.locks.run(merchantId, async () => {
      const tables = this.data.get(merchantId);
      const count = [...(tables?.values() ?? [])].reduce((n, t) => n + t.size, 0);
      this.data.delete(merchantId);
      return count;
    });
  }

  async ready() {
    return true;
  }

  async close() {}

  private tablesOf(merchantId: string): MerchantTables {
    let tables = this.data.get(merchantId);
    if (!tables) {
      tables = new Map();
      this.data.set(merchantId, tables);
    }
    return tables;
  }
}
