import { subscriptionsContract } from '@switchyard/contract';
import { domainClient, transportArgs, type DomainClient } from '../client.js';
import type { ClientOptions } from '../options.js';

export type SubscriptionsClient = DomainClient<typeof subscriptionsContract>;

/** A client for the subscriptions routes only: cheaper to type-check than the whole API. */
export function createSubscriptionsClient(options: ClientOptions): SubscriptionsClient {
  return domainClient(subscriptionsContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
