import { isDeepStrictEqual } from 'node:util';
import type { NextFunction, Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import { problemOf } from '../../errors.js';
import { MerchantChanged, type Store } from '../../store/types.js';
import { authenticatedMerchant } from '../server/locals.js';

/**
 * A refusal (a 4xx `DomainError`) answered while the record was not yet known current: it may
 * come from the old record (an account it did not have yet, a fault rule it did not know of). A
 * refusal comes before the work it refuses, so running the steps again repeats nothing; a failure
 * (5xx) may come after work outside a transaction (a webhook attempt) and is answered as it is.
 */
const refusedOnOldRecord = (err: unknown, res: Response) => err instanceof DomainError && problemOf(err).status < 500 && !res.locals.merchantCurrent;

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

/** Reads the merchant again and makes it the request's (current); whether the steps must run again. */
async function readAgain(store: Store, res: Response, err: unknown): Promise<boolean> {
  const before = authenticatedMerchant(res);
  const fresh = await store.getMerchant(before.id);
  if (!fresh) return false;
  res.locals.merchant = fresh;
  res.locals.merchantCurrent = true;
  return err instanceof MerchantChanged || !isDeepStrictEqual(fresh, before);
}
