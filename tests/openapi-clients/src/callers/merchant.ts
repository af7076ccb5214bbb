import type { Domain } from '@switchyard/contract';

/** A sandbox merchant's keys and account, made by the control API (which the OpenAPI document leaves out). */
export interface Merchant {
  publicApiKey: string;
  privateSecretKey: string;
  accountId: string;
}

/** The HTTP status each domain's call answered with. */
export type StatusByDomain = Record<Exclude<Domain, 'sandbox'>, number>;

/**
 * The request bodies a caller sends, each typed by its generator's own types (`B`), as a consumer's
 * data would be: the test fills them from the contract's fixtures, account included.
 */
export interface Requests<B extends { enroll: unknown; checkout: unknown; payment: unknown; subscription: unknown; recipient: unknown; entity: unknown }> {
  enrollDirect: () => B['enroll'];
  createCheckoutSession: () => B['checkout'];
  createPayment: (checkoutSession: string, vaultedToken: string) => B['payment'];
  createSubscription: (vaultedToken: string) => B['subscription'];
  createRecipient: () => B['recipient'];
  createEntity: () => B['entity'];
}
