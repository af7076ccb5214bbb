import {
  bankingContract,
  checkoutContract,
  customersContract,
  marketplaceContract,
  paymentMethodsContract,
  paymentsContract,
  sandboxContract,
  subscriptionsContract,
  webhooksContract,
} from '@switchyard/contract';
import { domainClient, transportArgs } from './client.js';
import type { ClientOptions } from './options.js';
import type { DomainClient } from './route-client.js';
import type { BankingRoutes } from './types/banking.js';
import type { CheckoutRoutes } from './types/checkout.js';
import type { CustomersRoutes } from './types/customers.js';
import type { MarketplaceRoutes } from './types/marketplace.js';
import type { PaymentMethodsRoutes } from './types/payment-methods.js';
import type { PaymentsRoutes } from './types/payments.js';
import type { SandboxRoutes } from './types/sandbox.js';
import type { SubscriptionsRoutes } from './types/subscriptions.js';
import type { WebhooksRoutes } from './types/webhooks.js';

export interface SwitchyardClient {
  customers: DomainClient<CustomersRoutes>;
  checkout: DomainClient<CheckoutRoutes>;
  paymentMethods: DomainClient<PaymentMethodsRoutes>;
  payments: DomainClient<PaymentsRoutes>;
  subscriptions: DomainClient<SubscriptionsRoutes>;
  marketplace: DomainClient<MarketplaceRoutes>;
  banking: DomainClient<BankingRoutes>;
  /** Webhook configuration (the `/v1/webhooks` routes). Signature helpers are separate functions. */
  webhooks: DomainClient<WebhooksRoutes>;
  /** The sandbox control API (clock, reset, events, chargebacks, ...); sandbox only. */
  sandbox: DomainClient<SandboxRoutes>;
}

/**
 * The whole API, grouped by domain: `client.payments.refund({...})` resolves to the payment or
 * throws a typed error; `client.payments.raw.refund({...})` resolves to ts-rest's `{status, body}`.
 */
export function createClient(options: ClientOptions): SwitchyardClient {
  const args = transportArgs(options);
  return {
    customers: domainClient<CustomersRoutes>(customersContract, args),
    checkout: domainClient<CheckoutRoutes>(checkoutContract, args),
    paymentMethods: domainClient<PaymentMethodsRoutes>(paymentMethodsContract, args),
    payments: domainClient<PaymentsRoutes>(paymentsContract, args),
    subscriptions: domainClient<SubscriptionsRoutes>(subscriptionsContract, args),
    marketplace: domainClient<MarketplaceRoutes>(marketplaceContract, args),
    banking: domainClient<BankingRoutes>(bankingContract, args),
    webhooks: domainClient<WebhooksRoutes>(webhooksContract, args),
    sandbox: domainClient<SandboxRoutes>(sandboxContract, args),
  };
}

export type { CallArgs, DomainClient, RawClient, RawResponse, RawRouteFunction, RouteTypes, ThrowingClient } from './route-client.js';
export * from './errors.js';
export { normalizeBaseUrl, SANDBOX_BASE_URL, DEFAULT_TIMEOUT_MS, type ClientOptions, type CallOptions, type RequestInfo, type ResponseInfo } from './options.js';
export { RETRY_COUNT_HEADER } from './retry.js';
export { verifyWebhookSignature, parseWebhookEvent, WEBHOOK_SIGNATURE_HEADER } from './webhooks.js';
// The named request and response types of every route, so callers can name them without loading the contract.
export type * from './types/banking.js';
export type * from './types/checkout.js';
export type * from './types/customers.js';
export type * from './types/marketplace.js';
export type * from './types/payment-methods.js';
export type * from './types/payments.js';
export type * from './types/sandbox.js';
export type * from './types/shared.js';
export type * from './types/subscriptions.js';
export type * from './types/webhooks.js';
// A banking address is the shared `PostalAddressOut` since the address shapes were defined once
//; its earlier name stays for callers that import it.
export type { PostalAddressOut as BankingAddressOut } from './types/shared.js';
