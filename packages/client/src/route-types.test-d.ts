import { describe, expectTypeOf, it } from 'vitest';
import type { AppRouter, InitClientReturn } from '@ts-rest/core';
import type { z } from 'zod';
import type {
  bankingContract,
  checkoutContract,
  customersContract,
  marketplaceContract,
  paymentMethodsContract,
  paymentsContract,
  sandboxContract,
  subscriptionsContract,
  webhooksContract,
  WebhookEvent as WebhookEventSchema,
  Payment as PaymentSchema,
  CreatePaymentBody as CreatePaymentBodySchema,
  Amount as AmountSchema,
  MetadataItem as MetadataItemSchema,
} from '@switchyard/contract';
import type { TransportArgs } from './client.js';
import type { DomainClient, RawClient, ThrowingClient } from './route-client.js';
import type { BankingRoutes } from './types/banking.js';
import type { CheckoutRoutes } from './types/checkout.js';
import type { CustomersRoutes } from './types/customers.js';
import type { MarketplaceRoutes } from './types/marketplace.js';
import type { PaymentMethodsRoutes } from './types/payment-methods.js';
import type { CreatePaymentBody, Payment, PaymentsRoutes } from './types/payments.js';
import type { SandboxRoutes } from './types/sandbox.js';
import type { Amount, MetadataItem } from './types/shared.js';
import type { SubscriptionsRoutes } from './types/subscriptions.js';
import type { WebhookEvent, WebhooksRoutes } from './types/webhooks.js';

/** What ts-rest's `initClient` returns for a router, given the client's transport arguments. */
type TsRestClient<Router extends AppRouter> = InitClientReturn<Router, TransportArgs>;

// Compile-time proofs (run by `tsc --noEmit`): the generated route tables give every route exactly
// the call signature and response union ts-rest infers from the contract, so the client's
// plain types can never drift from it. `toEqualTypeOf` fails on any difference in a property,
// its optionality or a status, in both directions.
describe('generated route types equal ts-rest inference over the contract', () => {
  it('customers', () => expectTypeOf<RawClient<CustomersRoutes>>().toEqualTypeOf<TsRestClient<typeof customersContract>>());
  it('checkout', () => expectTypeOf<RawClient<CheckoutRoutes>>().toEqualTypeOf<TsRestClient<typeof checkoutContract>>());
  it('payment-methods', () => expectTypeOf<RawClient<PaymentMethodsRoutes>>().toEqualTypeOf<TsRestClient<typeof paymentMethodsContract>>());
  it('payments', () => expectTypeOf<RawClient<PaymentsRoutes>>().toEqualTypeOf<TsRestClient<typeof paymentsContract>>());
  it('subscriptions', () => expectTypeOf<RawClient<SubscriptionsRoutes>>().toEqualTypeOf<TsRestClient<typeof subscriptionsContract>>());
  it('marketplace', () => expectTypeOf<RawClient<MarketplaceRoutes>>().toEqualTypeOf<TsRestClient<typeof marketplaceContract>>());
  it('banking', () => expectTypeOf<RawClient<BankingRoutes>>().toEqualTypeOf<TsRestClient<typeof bankingContract>>());
  it('webhooks', () => expectTypeOf<RawClient<WebhooksRoutes>>().toEqualTypeOf<TsRestClient<typeof webhooksContract>>());
  it('sandbox', () => expectTypeOf<RawClient<SandboxRoutes>>().toEqualTypeOf<TsRestClient<typeof sandboxContract>>());

  it('keeps the throwing style over ts-rest unchanged', () => {
    expectTypeOf<DomainClient<PaymentsRoutes>>().toEqualTypeOf<ThrowingClient<TsRestClient<typeof paymentsContract>> & { raw: TsRestClient<typeof paymentsContract> }>();
  });
});

describe('named types equal z.infer / z.input of the schema they are named after', () => {
  it('responses are the schema output, requests its input', () => {
    expectTypeOf<Payment>().toEqualTypeOf<z.output<typeof PaymentSchema>>();
    expectTypeOf<CreatePaymentBody>().toEqualTypeOf<z.input<typeof CreatePaymentBodySchema>>();
  });

  it('names a shape nested in many routes after the schema it equals, both ways where they agree', () => {
    expectTypeOf<Amount>().toEqualTypeOf<z.output<typeof AmountSchema>>();
    expectTypeOf<Amount>().toEqualTypeOf<z.input<typeof AmountSchema>>();
    expectTypeOf<MetadataItem>().toEqualTypeOf<z.output<typeof MetadataItemSchema>>();
  });

  it('types webhook events, which no route answers with', () => {
    expectTypeOf<WebhookEvent>().toEqualTypeOf<z.output<typeof WebhookEventSchema>>();
  });
});
