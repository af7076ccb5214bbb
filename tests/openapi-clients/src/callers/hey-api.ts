/**
 * One call per domain of the API through the client @hey-api/openapi-ts generates. Compiled by
 * the test under `tsc --strict` with the generated code (it is not part of the package's own
 * typecheck, which runs before anything is generated).
 */
import { createClient } from '../../.generated/hey-api/client/index.js';
import * as sdk from '../../.generated/hey-api/sdk.gen.js';
import type { CreateCheckoutSessionBody, CreateEntityBody, CreatePaymentBody, CreateRecipientBody, CreateSubscriptionBody, EnrollDirectBody } from '../../.generated/hey-api/types.gen.js';
import type { Merchant, Requests, StatusByDomain } from './merchant.js';

export type HeyApiRequests = Requests<{
  enroll: EnrollDirectBody;
  checkout: CreateCheckoutSessionBody;
  payment: CreatePaymentBody;
  subscription: CreateSubscriptionBody;
  recipient: CreateRecipientBody;
  entity: CreateEntityBody;
}>;

/** The status of an answer; a call that got none (the server unreachable) has no place in this test. */
function statusOf(result: { response?: Response }): number {
  if (!result.response) throw new Error('no answer');
  return result.response.status;
}

export async function callEveryDomain(baseUrl: string, merchant: Merchant, requests: HeyApiRequests): Promise<StatusByDomain> {
  const client = createClient({ baseUrl });
  const keys = { 'public-api-key': merchant.publicApiKey, 'private-secret-key': merchant.privateSecretKey };
  const idempotent = () => ({ ...keys, 'x-idempotency-key': crypto.randomUUID() });

  const customer = await sdk.createCustomer({ client, headers: keys, body: { merchant_customer_id: 'hey-api-1' } });
  const method = await sdk.enrollPaymentMethodDirect({ client, headers: idempotent(), path: { customer_id: customer.data?.id ?? '' }, body: requests.enrollDirect() });
  const vaultedToken = method.data?.vaulted_token ?? '';
  const session = await sdk.createCheckoutSession({ client, headers: keys, body: requests.createCheckoutSession() });
  const payment = await sdk.createPayment({ client, headers: idempotent(), body: requests.createPayment(session.data?.checkout_session ?? '', vaultedToken) });
  const subscription = await sdk.createSubscription({ client, headers: idempotent(), body: requests.createSubscription(vaultedToken) });
  const recipient = await sdk.createRecipient({ client, headers: keys, body: requests.createRecipient() });
  const entity = await sdk.createBankingEntity({ client, headers: idempotent(), body: requests.createEntity() });
  const webhooks = await sdk.listWebhooks({ client, headers: keys, query: { account_id: merchant.accountId } });
  return {
    customers: statusOf(customer),
    'payment-methods': statusOf(method),
    checkout: statusOf(session),
    payments: statusOf(payment),
    subscriptions: statusOf(subscription),
    marketplace: statusOf(recipient),
    banking: statusOf(entity),
    webhooks: statusOf(webhooks),
  };
}
