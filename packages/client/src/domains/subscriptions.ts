import { subscriptionsContract } from '@switchyard/contract';
import { domainClient, transportArgs } from '../client.js';
import type { ClientOptions } from '../options.js';
import type { DomainClient } from '../route-client.js';
import type { SubscriptionsRoutes } from '../types/subscriptions.js';

export type SubscriptionsClient = DomainClient<SubscriptionsRoutes>;

/** A client for the subscriptions routes only: cheaper to type-check than the whole API. */
export function createSubscriptionsClient(options: ClientOptions): SubscriptionsClient {
  return domainClient<SubscriptionsRoutes>(subscriptionsContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
export type * from '../types/subscriptions.js';
export type * from '../types/shared.js';
