import { marketplaceContract } from '@switchyard/contract';
import { domainClient, transportArgs } from '../client.js';
import type { ClientOptions } from '../options.js';
import type { DomainClient } from '../route-client.js';
import type { MarketplaceRoutes } from '../types/marketplace.js';

export type MarketplaceClient = DomainClient<MarketplaceRoutes>;

/** A client for the marketplace routes only: cheaper to type-check than the whole API. */
export function createMarketplaceClient(options: ClientOptions): MarketplaceClient {
  return domainClient<MarketplaceRoutes>(marketplaceContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
export type * from '../types/marketplace.js';
export type * from '../types/shared.js';
