import { paymentMethodsContract } from '@switchyard/contract';
import { domainClient, transportArgs, type DomainClient } from '../client.js';
import type { ClientOptions } from '../options.js';

export type PaymentMethodsClient = DomainClient<typeof paymentMethodsContract>;

/** A client for the payment-methods routes only: cheaper to type-check than the whole API. */
export function createPaymentMethodsClient(options: ClientOptions): PaymentMethodsClient {
  return domainClient(paymentMethodsContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
