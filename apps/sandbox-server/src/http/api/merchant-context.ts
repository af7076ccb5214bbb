import type { RequestContext } from '../../app/context.js';
import type { MerchantRecord } from '../../store/types.js';
import type { HttpDeps } from './deps.js';

/**
 * The use-case context of one merchant: what an authenticated API request gets, and what the
 * sandbox's pages (payer page, enrollment page) act with, where the payer holds no API keys.
 */
export function merchantRequestContext(deps: HttpDeps, merchant: MerchantRecord): RequestContext {
  return {
    merchant,
    store: deps.store,
    clock: deps.clock,
    ids: deps.ids.for(merchant.id),
    baseUrl: deps.baseUrl(),
    deliveriesQueued: () => deps.dispatcher.kick(merchant.id),
    limits: deps.limits,
    webhookUrlRefusal: (url) => deps.dispatcher.destinations.refusal(url),
  };
}
