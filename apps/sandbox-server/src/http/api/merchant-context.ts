import type { RequestContext } from '../../app/context.js';
import type { MerchantRecord, Store } from '../../store/types.js';
import type { HttpDeps } from './deps.js';

/**
 * The use-case context of one merchant: what an authenticated API request gets, and what the
 * sandbox's pages (payer page, enrollment page) act with, where the payer holds no API keys. An API
 * request reads the store through its own view (`store`).
 */
export function merchantRequestContext(deps: HttpDeps, merchant: MerchantRecord, store: Store = deps.store): RequestContext {
  return {
    merchant,
    store,
    clock: deps.clock,
    ids: deps.ids.for(merchant.id),
    baseUrl: deps.baseUrl(),
    deliveriesQueued: () => deps.dispatcher.kick(merchant.id),
    limits: deps.limits,
    webhookUrlRefusal: (url) => deps.dispatcher.destinations.refusal(url),
  };
}
