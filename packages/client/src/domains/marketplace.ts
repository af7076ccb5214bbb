import { marketplaceContract } from '@switchyard/contract';
import { domainClient, transportArgs, type DomainClient } from '../client.js';
import type { ClientOptions } from '../options.js';

export type MarketplaceClient = DomainClient<typeof marketplaceContract>;

/** A client for the marketplace routes only: cheaper to type-check than the whole API. */
export function createMarketplaceClient(options: ClientOptions): MarketplaceClient {
  return domainClient(marketplaceContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
