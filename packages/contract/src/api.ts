/**
 * The `/v1` API's router, in a module of its own so that the sandbox contract can read it (the
 * operationIds a fault rule may name) without importing the package's index, which exports it.
 */
import { customersContract } from './customers/routes.js';
import { checkoutContract } from './checkout/routes.js';
import { paymentMethodsContract } from './payment-methods/routes.js';
import { paymentsContract } from './payments/routes.js';
import { subscriptionsContract } from './subscriptions/routes.js';
import { marketplaceContract } from './marketplace/routes.js';
import { bankingContract } from './banking/routes.js';
import { webhooksContract } from './webhooks/routes.js';

/** The whole `/v1` API, one router per domain. Prefer the domain routers where one is enough. */
export const contract: {
  customers: typeof customersContract;
  checkout: typeof checkoutContract;
  paymentMethods: typeof paymentMethodsContract;
  payments: typeof paymentsContract;
  subscriptions: typeof subscriptionsContract;
  marketplace: typeof marketplaceContract;
  banking: typeof bankingContract;
  webhooks: typeof webhooksContract;
} = {
  customers: customersContract,
  checkout: checkoutContract,
  paymentMethods: paymentMethodsContract,
  payments: paymentsContract,
  subscriptions: subscriptionsContract,
  marketplace: marketplaceContract,
  banking: bankingContract,
  webhooks: webhooksContract,
};
export type Contract = typeof contract;
