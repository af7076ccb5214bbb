import { paymentsContract } from '@switchyard/contract';
import { domainClient, transportArgs } from '../client.js';
import type { ClientOptions } from '../options.js';
import type { DomainClient } from '../route-client.js';
import type { PaymentsRoutes } from '../types/payments.js';

export type PaymentsClient = DomainClient<PaymentsRoutes>;

/** A client for the payments routes only: cheaper to type-check than the whole API. */
export function createPaymentsClient(options: ClientOptions): PaymentsClient {
  return domainClient<PaymentsRoutes>(paymentsContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
export type * from '../types/payments.js';
export type * from '../types/shared.js';
