import { customersContract } from '@switchyard/contract';
import { domainClient, transportArgs } from '../client.js';
import type { ClientOptions } from '../options.js';
import type { DomainClient } from '../route-client.js';
import type { CustomersRoutes } from '../types/customers.js';

export type CustomersClient = DomainClient<CustomersRoutes>;

/** A client for the customers routes only: cheaper to type-check than the whole API. */
export function createCustomersClient(options: ClientOptions): CustomersClient {
  return domainClient<CustomersRoutes>(customersContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
export type * from '../types/customers.js';
export type * from '../types/shared.js';
