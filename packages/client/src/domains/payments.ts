import { paymentsContract } from '@switchyard/contract';
import { domainClient, transportArgs, type DomainClient } from '../client.js';
import type { ClientOptions } from '../options.js';

export type PaymentsClient = DomainClient<typeof paymentsContract>;

/** A client for the payments routes only: cheaper to type-check than the whole API. */
export function createPaymentsClient(options: ClientOptions): PaymentsClient {
  return domainClient(paymentsContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
