import type { MerchantRecord } from '../../store/types.js';
import type { RouteMatcher } from '../api/route-table.js';

// What the middleware chain leaves on `res.locals` for the steps after it. Express types
// `res.locals` as its global `Express.Locals` (plus any key): declaring the keys here types them.
declare global {
  namespace Express {
    interface Locals {
      /** Set by assignRequestId on every request. */
      requestId?: string;
      /** The API route the gate matched (only on /v1 and /sandbox paths it knows). */
      route?: RouteMatcher;
      /** The caller, once authentication passed (absent on routes with `auth: 'none'`); it may be a cached record (api/stale-merchant.ts). */
      merchant?: MerchantRecord;
      /** Set once `merchant` is known to be the merchant's current record: a checked transaction passed, or it was read again. */
      merchantCurrent?: boolean;
      /** Set once the faults middleware decided on what a second run of the steps would decide alike (api/stale-merchant.ts). */
      faultDecided?: boolean;
      /** The fault applied to this request, if any (set by the faults middleware, read by the journal). */
      fault?: { source: 'rule' | 'header'; rule_id?: string; effect: string };
    }
  }
}
