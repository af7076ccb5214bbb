import { customersContract } from './customers/routes.js';
import { checkoutContract } from './checkout/routes.js';
import { paymentMethodsContract } from './payment-methods/routes.js';
import { paymentsContract } from './payments/routes.js';
import { subscriptionsContract } from './subscriptions/routes.js';
import { marketplaceContract } from './marketplace/routes.js';
import { bankingContract } from './banking/routes.js';
import { webhooksContract } from './webhooks/routes.js';
import { listRoutes } from './routes-list.js';
import { contract } from './api.js';

export * from './customers/index.js';
export * from './checkout/index.js';
export * from './payment-methods/index.js';
export * from './payments/index.js';
export * from './subscriptions/index.js';
export * from './marketplace/index.js';
export * from './banking/index.js';
export * from './webhooks/index.js';
export * from './errors.js';
export * from './headers.js';
export * from './meta.js';
export * from './routes-list.js';
export { unwrapSchema, wrapperOf, type UnwrappedSchema, type ZodWrapper } from './zod-walk.js';
export { OPERATING_COUNTRIES, ISO_COUNTRIES, OperatingCountry, IsoCountry } from './shared/countries.js';
export { Amount, Currency, MAX_AMOUNT_VALUE, PaymentAmount, hasAtMostFourDecimals } from './shared/money.js';
export { ISO_CURRENCIES, IsoCurrency } from './shared/currencies.js';
export { MetadataItem, FileObject } from './shared/shapes.js';

export { contract, type Contract } from './api.js';

export {
  customersContract,
  checkoutContract,
  paymentMethodsContract,
  paymentsContract,
  subscriptionsContract,
  marketplaceContract,
  bankingContract,
  webhooksContract,
};

/** operationIds of every route that needs `X-Idempotency-Key`. */
export const IDEMPOTENT_OPERATIONS: readonly string[] = listRoutes(contract)
  .filter((r) => r.meta.idempotent)
  .map((r) => r.meta.operationId);
export * from './validation.js';
export type * from './types.js';
export * from './sandbox/index.js';
