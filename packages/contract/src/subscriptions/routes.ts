import { initContract } from '@ts-rest/core';
import { v1RouterOptions, withDeclaredErrors } from '../shared/router.js';
import { meta } from '../meta.js';
import { AccountCodeHeader, IdempotencyKeyHeader } from '../headers.js';
import { CreateSubscriptionBody, Subscription, SubscriptionIdParams } from './schemas.js';

const c = initContract();


export const subscriptionsContract = withDeclaredErrors(c.router(
  {
    create: {
      method: 'POST',
      path: '/subscriptions',
      headers: IdempotencyKeyHeader.partial(),
      body: CreateSubscriptionBody,
      responses: { 200: Subscription },
      summary: 'Create a subscription',
      description: 'Creates a recurring charge on a vaulted payment method. An idempotency key is optional here.',
      metadata: meta({ operationId: 'createSubscription', idempotent: false, supporting: true, specSection: null, domain: 'subscriptions', errors: ['CUSTOMER_NOT_FOUND', 'PAYMENT_METHOD_NOT_FOUND', 'INVALID_AMOUNT'] }),
    },
    get: {
      method: 'GET',
      path: '/subscriptions/:id',
      pathParams: SubscriptionIdParams,
      responses: { 200: Subscription },
      summary: 'Retrieve a subscription',
      metadata: meta({ operationId: 'getSubscription', idempotent: false, supporting: true, specSection: null, domain: 'subscriptions', errors: ['SUBSCRIPTION_NOT_FOUND'] }),
    },
    retry: {
      method: 'POST',
      path: '/subscriptions/:id/retry',
      pathParams: SubscriptionIdParams,
      headers: AccountCodeHeader,
      body: c.noBody(),
      responses: { 200: Subscription },
      summary: 'Retry a subscription payment',
      description:
        'Retries the most recent failed payment of the subscription. Refused with INVALID_REQUEST when the payment is not the most recent, or a previous manual retry did not end DECLINED.',
      metadata: meta({ operationId: 'retrySubscriptionPayment', idempotent: false, supporting: false, specSection: '4.13', domain: 'subscriptions', errors: ['SUBSCRIPTION_NOT_FOUND', 'INVALID_STATE'] }),
    },
  },
  v1RouterOptions,
));
