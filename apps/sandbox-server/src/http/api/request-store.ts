import type { Response } from 'express';
import type { MerchantRecord, Store, Tx } from '../../store/types.js';
import { authenticatedMerchant } from '../server/locals.js';

/**
 * The store as one authenticated request acts through it. Authentication may answer with a
 * cached merchant record (`Store.findMerchantByPublicKey`), so until the request knows its record
 * is current, its transactions of that merchant are checked (`Store.withCheckedTransaction`):
 * the first check passes, or the transaction writes nothing and throws `MerchantChanged`, and the
 * request starts over with the record read again (`rerunWhenMerchantChanged`). After a passed
 * check every step of the request runs as it always did, on the record the request began with.
 *
 * A request that changes or resets the merchant as a whole acts on what it reads itself, so from
 * then on nothing is checked: a check would find the request's own change. The record it changed
 * to replaces the one it began with, for the steps after the change (the journal among them).
 */
export class RequestStore implements Store {
  constructor(
    private readonly store: Store,
    private readonly res: Response,
  ) {}

  get secretKeys() {
    return this.store.secretKeys;
  }

  private get unchecked(): MerchantRecord | undefined {
    return this.res.locals.merchantCurrent ? undefined : authenticatedMerchant(this.res);
  }

  private readonly passed = () => {
    this.res.locals.merchantCurrent = true;
  };

  withTransaction<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const merchant = this.unchecked;
    if (merchant?.id !== merchantId) return this.store.withTransaction(merchantId, fn);
    return this.store.withCheckedTransaction(merchant, fn, this.passed);
  }

  withCheckedTransaction<T>(merchant: MerchantRecord, fn: (tx: Tx) => Promise<T>, current: () => void, alone?: boolean): Promise<T> {
    return this.store.withCheckedTransaction(merchant, fn, current, alone);
  }

  withTransactionAlone<T>(merchantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const merchant = this.unchecked;
    if (merchant?.id !== merchantId) return this.store.withTransactionAlone(merchantId, fn);
    return this.store.withCheckedTransaction(merchant, fn, this.passed, true);
  }

  getMerchant(id: string) {
    return this.store.getMerchant(id);
  }

  locate<T>(...args: Parameters<Store['locate']>) {
    return this.store.locate<T>(...args);
  }

  findMerchantByPublicKey(publicKey: string) {
    return this.store.findMerchantByPublicKey(publicKey);
  }

  putMerchantIfAbsent(merchant: MerchantRecord) {
    return this.store.putMerchantIfAbsent(merchant);
  }

  async updateMerchant(id: string, change: (m: MerchantRecord) => MerchantRecord) {
    const updated = await this.store.updateMerchant(id, change);
    if (id === this.res.locals.merchant?.id) {
      this.passed();
      // What runs after the change (the journal, a later step) sees the record as changed.
      if (updated) this.res.locals.merchant = updated;
    }
    return updated;
  }

  listMerchantIds() {
    return this.store.listMerchantIds();
  }

  async resetMerchant(merchantId: string) {
    const deleted = await this.store.resetMerchant(merchantId);
    if (merchantId === this.res.locals.merchant?.id) this.passed();
    return deleted;
  }

  ready() {
    return this.store.ready();
  }

  close() {
    return this.store.close();
  }
}
