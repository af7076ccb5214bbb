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
import { domainClient, transportArgs, type DomainClient } from './client.js';
import type { ClientOptions } from './options.js';

export interface SwitchyardClient {
  customers: DomainClient<typeof customersContract>;
  checkout: DomainClient<typeof checkoutContract>;
  paymentMethods: DomainClient<typeof paymentMethodsContract>;
  payments: DomainClient<typeof paymentsContract>;
  subscriptions: DomainClient<typeof subscriptionsContract>;
  marketplace: DomainClient<typeof marketplaceContract>;
  banking: DomainClient<typeof bankingContract>;
  /** Webhook configuration (the `/v1/webhooks` routes). Signature helpers are separate functions. */
  webhooks: DomainClient<typeof webhooksContract>;
  /** The sandbox control API (clock, reset, events, chargebacks, ...); sandbox only. */
  sandbox: DomainClient<typeof sandboxContract>;
}

/**
 * The whole API, grouped by domain: `client.payments.refund({...})` resolves to the payment or
 * throws a typed error; `client.payments.raw.refund({...})` resolves to ts-rest's `{status, body}`.
 */
export function createClient(options: ClientOptions): SwitchyardClient {
  const args = transportArgs(options);
  return {
    customers: domainClient(customersContract, args),
    checkout: domainClient(checkoutContract, args),
    paymentMethods: domainClient(paymentMethodsContract, args),
    payments: domainClient(paymentsContract, args),
    subscriptions: domainClient(subscriptionsContract, args),
    marketplace: domainClient(marketplaceContract, args),
    banking: domainClient(bankingContract, args),
    webhooks: domainClient(webhooksContract, args),
    sandbox: domainClient(sandboxContract, args),
  };
}

export { normalizeBaseUrl, type DomainClient, type RawClient, type ThrowingClient } from './client.js';
export * from './errors.js';
export { SANDBOX_BASE_URL, DEFAULT_TIMEOUT_MS, type ClientOptions, type CallOptions, type RequestInfo, type ResponseInfo } from './options.js';
export { RETRY_COUNT_HEADER } from './transport.js';
export { verifyWebhookSignature, parseWebhookEvent, WEBHOOK_SIGNATURE_HEADER } from './webhooks.js';
