import { checkoutContract } from '@switchyard/contract';
import { domainClient, transportArgs } from '../client.js';
import type { ClientOptions } from '../options.js';
import type { DomainClient } from '../route-client.js';
import type { CheckoutRoutes } from '../types/checkout.js';

export type CheckoutClient = DomainClient<CheckoutRoutes>;

/** A client for the checkout routes only: cheaper to type-check than the whole API. */
export function createCheckoutClient(options: ClientOptions): CheckoutClient {
  return domainClient<CheckoutRoutes>(checkoutContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
export type * from '../types/checkout.js';
export type * from '../types/shared.js';
