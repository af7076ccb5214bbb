import { customersContract } from '@switchyard/contract';
import { domainClient, transportArgs, type DomainClient } from '../client.js';
import type { ClientOptions } from '../options.js';

export type CustomersClient = DomainClient<typeof customersContract>;

/** A client for the customers routes only: cheaper to type-check than the whole API. */
export function createCustomersClient(options: ClientOptions): CustomersClient {
  return domainClient(customersContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
