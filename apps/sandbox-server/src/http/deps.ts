import type { Response } from 'express';
import type { ClockAdvancer } from '../app/clock-advance.js';
import type { RequestContext } from '../app/context.js';
import type { BaseClock } from '../runtime/clock.js';
import type { IdFactory } from '../runtime/ids.js';
import type { MerchantRecord, Store } from '../store/types.js';
import type { IdempotencyOptions } from './idempotency.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';

/** What the HTTP layer is built from. */
export interface HttpDeps {
  store: Store;
  clock: BaseClock;
  ids: IdFactory;
  /** The public base URL, known only once the server listens (port 0 picks one). */
  baseUrl: () => string;
  idempotency: IdempotencyOptions;
  /** Upper bound for the `x-sandbox-provider-latency-ms` header. */
  maxProviderLatencyMs: number;
  dispatcher: WebhookDispatcher;
  clockAdvancer: ClockAdvancer;
}

/** The use-case context of an authenticated request (the auth middleware put the merchant on `res.locals`). */
export function contextOf(deps: HttpDeps, res: Response): RequestContext {
  const merchant = res.locals.merchant as MerchantRecord;
  return {
    merchant,
    store: deps.store,
    clock: deps.clock,
    ids: deps.ids.for(merchant.id),
    baseUrl: deps.baseUrl(),
    deliveriesQueued: () => deps.dispatcher.kick(merchant.id),
  };
}

export const PROVIDER_LATENCY_HEADER = 'x-sandbox-provider-latency-ms';
export const REPLAYED_HEADER = 'idempotent-replayed';
