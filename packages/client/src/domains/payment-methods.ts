import { paymentMethodsContract } from '@switchyard/contract';
import { domainClient, transportArgs } from '../client.js';
import type { ClientOptions } from '../options.js';
import type { DomainClient } from '../route-client.js';
import type { PaymentMethodsRoutes } from '../types/payment-methods.js';

export type PaymentMethodsClient = DomainClient<PaymentMethodsRoutes>;

/** A client for the payment-methods routes only: cheaper to type-check than the whole API. */
export function createPaymentMethodsClient(options: ClientOptions): PaymentMethodsClient {
  return domainClient<PaymentMethodsRoutes>(paymentMethodsContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
export type * from '../types/payment-methods.js';
export type * from '../types/shared.js';
