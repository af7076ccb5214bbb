import type { Response } from 'express';
import type { MerchantRecord } from '../../store/types.js';
import type { RouteMatcher } from '../api/route-table.js';

/** The route the gate matched; the steps after the gate run only on matched routes. */
export function matchedRoute(res: Response): RouteMatcher {
  const { route } = res.locals;
  if (!route) throw new Error('no route matched: this step runs after the route gate');
  return route;
}

/** The authenticated merchant; handlers of merchant routes run only after authentication. */
export function authenticatedMerchant(res: Response): MerchantRecord {
  const { merchant } = res.locals;
  if (!merchant) throw new Error('no merchant: this step runs after authentication');
  return merchant;
}
