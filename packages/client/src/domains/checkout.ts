import { checkoutContract } from '@switchyard/contract';
import { domainClient, transportArgs, type DomainClient } from '../client.js';
import type { ClientOptions } from '../options.js';

export type CheckoutClient = DomainClient<typeof checkoutContract>;

/** A client for the checkout routes only: cheaper to type-check than the whole API. */
export function createCheckoutClient(options: ClientOptions): CheckoutClient {
  return domainClient(checkoutContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
