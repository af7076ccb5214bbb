import { isDeepStrictEqual } from 'node:util';
import type { NextFunction, Response } from 'express';
import { invalidCredentials } from '../../app/context.js';
import { DomainError } from '../../domain/errors.js';
import { problemOf } from '../../errors.js';
import { MerchantChanged, type MerchantRecord, type Store, type Tx } from '../../store/types.js';
import { authenticatedMerchant } from '../server/locals.js';

/*
 * The stale-merchant protocol, whole. Authentication may answer with a cached merchant record
 * (`Store.findMerchantByPublicKey`), so until the request knows its record is current, its
 * transactions of that merchant are checked (`Store.withCheckedTransaction`, through
 * `RequestStore`): the first check passes, or the transaction writes nothing and throws
 * `MerchantChanged`, and the request starts over with the record read again
 * (`rerunWhenMerchantChanged`). After a passed check every step of the request runs as it always
 * did, on the record the request began with.
 *
 * Its state is on `res.locals`: `merchant` (the record the request acts on: authentication sets
 * it, and only this module changes it), `merchantCurrent` (known current) and `faultDecided` (the
 * faults middleware's decision stands for a second run of the steps), which only this module sets.
 *
 * A record read again may hold another secret key: the one the request authenticated with was
 * rotated (`POST /sandbox/secret-key/rotate`), maybe through another replica. Wherever the
 * request meets the merchant as the store has it now (read again, `getMerchant`,
 * `updateMerchant`), such a change answers 401 INVALID_CREDENTIALS (`refuseRotatedKey`).
 */

/**
 * Refuses the request when `current`, its merchant as the store has it now, no longer has the
 * secret key's digest of the record the request authenticated on: the key was rotated since.
 * The digest the request authenticated with matched its key, so a digest that differs cannot.
 */
function refuseRotatedKey(res: Response, current: MerchantRecord): void {
  const own = res.locals.merchant;
  if (own?.id === current.id && own.secret_key_digest !== current.secret_key_digest) throw invalidCredentials();
}

/** Whether the request's merchant record is known to be its current one. */
export const isMerchantCurrent = (res: Response): boolean => res.locals.merchantCurrent === true;

const markCurrent = (res: Response) => {
  res.locals.merchantCurrent = true;
};

/** Whether the faults middleware decided, on an earlier run of the steps, what this run would decide alike. */
export const isFaultDecided = (res: Response): boolean => res.locals.faultDecided === true;

/**
 * Keeps the faults middleware's decision for a second run of the steps. One that rests on the
 * merchant record (the rules it has, or the mark that it has none) stands only when the record is
 * known current: a record not yet known current may lack a mark set meanwhile.
 */
export function keepFaultDecision(res: Response, restsOnRecord: boolean): void {
  res.locals.faultDecided = !restsOnRecord || isMerchantCurrent(res);
}

/**
 * The store as one authenticated request acts through it: the request's transactions of its own
 * merchant are checked until its record is known current.
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
    return isMerchantCurrent(this.res) ? undefined : authenticatedMerchant(this.res);
  }

  private readonly passed = () => markCurrent(this.res);

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

  async getMerchant(id: string) {
    const merchant = await this.store.getMerchant(id);
    if (merchant) refuseRotatedKey(this.res, merchant);
    return merchant;
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
    // Checked on the record the change is made to: nothing is changed for a key rotated away.
    const updated = await this.store.updateMerchant(id, (m) => {
      refuseRotatedKey(this.res, m);
      return change(m);
    });
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

/**
 * A refusal (a 4xx `DomainError`) answered while the record was not yet known current: it may
 * come from the old record (an account it did not have yet, a fault rule it did not know of). A
 * refusal comes before the work it refuses, so running the steps again repeats nothing; a failure
 * (5xx) may come after work outside a transaction (a webhook attempt) and is answered as it is.
 */
const refusedOnOldRecord = (err: unknown, res: Response) => err instanceof DomainError && problemOf(err).status < 500 && !isMerchantCurrent(res);

/**
 * Runs an authenticated request's steps after authentication (`steps`), and runs them once more,
 * on the merchant read again, when the record they acted on was not current: a checked
 * transaction found it changed (`MerchantChanged`, nothing written), or the steps refused the
 * request while the record was not yet known current and it turns out to have changed. After the
 * second read the record is current, so nothing can fail that way again. See `RequestStore`.
 */
export function rerunWhenMerchantChanged(store: Store, res: Response, next: NextFunction, steps: (done: NextFunction) => void): void {
  let rerun = false;
  const done: NextFunction = (err?: unknown) => {
    const unsure = err instanceof MerchantChanged || refusedOnOldRecord(err, res);
    if (!unsure || rerun || res.headersSent) {
      next(err);
      return;
    }
    rerun = true;
    readAgain(store, res, err).then((changed) => (changed ? steps(done) : next(err)), next);
  };
  steps(done);
}

/**
 * Reads the merchant again and makes it the request's (current); whether the steps must run
 * again. Throws INVALID_CREDENTIALS when the key the request authenticated with was rotated away.
 */
async function readAgain(store: Store, res: Response, err: unknown): Promise<boolean> {
  const before = authenticatedMerchant(res);
  const fresh = await store.getMerchant(before.id);
  if (!fresh) return false;
  refuseRotatedKey(res, fresh);
  res.locals.merchant = fresh;
  markCurrent(res);
  return err instanceof MerchantChanged || !isDeepStrictEqual(fresh, before);
}
