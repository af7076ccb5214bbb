/**
 * One call per domain of the API through openapi-fetch, typed by what openapi-typescript
 * generates. Compiled by the test under `tsc --strict` with the generated types.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '../../.generated/openapi-typescript/schema.js';
import type { Merchant, Requests, StatusByDomain } from './merchant.js';

type Schemas = components['schemas'];
export type OpenapiTypescriptRequests = Requests<{
  enroll: Schemas['EnrollDirectBody'];
  checkout: Schemas['CreateCheckoutSessionBody'];
  payment: Schemas['CreatePaymentBody'];
  subscription: Schemas['CreateSubscriptionBody'];
  recipient: Schemas['CreateRecipientBody'];
  entity: Schemas['CreateEntityBody'];
}>;

export async function callEveryDomain(baseUrl: string, merchant: Merchant, requests: OpenapiTypescriptRequests): Promise<StatusByDomain> {
  const client = createClient<paths>({ baseUrl });
  const header = { 'public-api-key': merchant.publicApiKey, 'private-secret-key': merchant.privateSecretKey };
  const idempotent = () => ({ header: { ...header, 'x-idempotency-key': crypto.randomUUID() } });

  const customer = await client.POST('/v1/customers', { params: { header }, body: { merchant_customer_id: 'openapi-typescript-1' } });
  const method = await client.POST('/v1/customers/{customer_id}/payment-methods', {
    params: { ...idempotent(), path: { customer_id: customer.data?.id ?? '' } },
    body: requests.enrollDirect(),
  });
  const vaultedToken = method.data?.vaulted_token ?? '';
  const session = await client.POST('/v1/checkout/sessions', { params: { header }, body: requests.createCheckoutSession() });
  const payment = await client.POST('/v1/payments', { params: idempotent(), body: requests.createPayment(session.data?.checkout_session ?? '', vaultedToken) });
  const subscription = await client.POST('/v1/subscriptions', { params: idempotent(), body: requests.createSubscription(vaultedToken) });
  const recipient = await client.POST('/v1/recipients', { params: { header }, body: requests.createRecipient() });
  const entity = await client.POST('/v1/banking/entities', { params: idempotent(), body: requests.createEntity() });
  const webhooks = await client.GET('/v1/webhooks', { params: { header, query: { account_id: merchant.accountId } } });
  return {
    customers: customer.response.status,
    'payment-methods': method.response.status,
    checkout: session.response.status,
    payments: payment.response.status,
    subscriptions: subscription.response.status,
    marketplace: recipient.response.status,
    banking: entity.response.status,
    webhooks: webhooks.response.status,
  };
}
