// A consumer script: imports the client through its package exports (the built `dist`, as an
// installed package would) and calls one route of every domain, reading fields of each result.
import { createClient, NotFoundError, isSwitchyardError } from '@switchyard/client';

const ACCOUNT = '6a1e7c2b-93f4-4d8e-b1a0-5c2f9e7d3b14';
const client = createClient({ publicApiKey: 'pk', privateSecretKey: 'sk' });

export async function run(): Promise<string[]> {
  const customer = await client.customers.create({
    body: { merchant_customer_id: 'cust-0001', first_name: 'Ada', country: 'AR', metadata: [{ key: 'segment', value: 'gold' }] },
  });

  const session = await client.checkout.createSession({
    body: {
      merchant_order_id: 'order-0001',
      payment_description: 'Order 0001',
      country: 'AR',
      account_id: ACCOUNT,
      customer_id: customer.id,
      amount: { currency: 'ARS', value: 99.99 },
      workflow: 'CHECKOUT',
    },
  });

  const method = await client.paymentMethods.enrollDirect({
    params: { customer_id: customer.id },
    body: {
      account_id: ACCOUNT,
      country: 'AR',
      type: 'CARD',
      workflow: 'DIRECT',
      card_data: { holder_name: 'ADA LOVELACE', expiration_month: 11, expiration_year: 28, number: '4507990000000002', security_code: '123' },
    },
  });

  const payment = await client.payments.refund({
    params: { id: 'pay-1', transaction_id: 'tx-1' },
    body: { merchant_reference: 'refund-0001', amount: { currency: 'ARS', value: 20.5 } },
    idempotencyKey: 'refund-0001',
  });

  const subscription = await client.subscriptions.retry({ params: { id: 'sub-1' } });

  const recipient = await client.marketplace.createRecipient({
    body: {
      account_id: ACCOUNT,
      merchant_recipient_id: 'seller-0001',
      national_entity: 'INDIVIDUAL',
      first_name: 'Grace',
      last_name: 'Hopper',
      country: 'BR',
    },
  });

  const account = await client.banking.updateAccount({
    params: { account_id: 'acc-1' },
    body: { account_id: ACCOUNT, account_type: 'SAVINGS' },
  });

  const webhook = await client.webhooks.create({
    body: { account_id: ACCOUNT, name: 'Payments listener', url: 'https://example.com/hooks', hmac_client_secret: 'whsec-1', payment_triggers: ['PURCHASE'] },
  });

  const clock = await client.sandbox.advanceClock({ body: { seconds: 86_400 } });

  const raw = await client.payments.raw.get({ params: { payment_id: payment.id } });
  const rawStatus = raw.status === 200 ? raw.body.status : raw.body.code;

  try {
    await client.customers.get({ params: { customer_id: 'missing' } });
  } catch (error) {
    if (error instanceof NotFoundError) return [error.code ?? 'NOT_FOUND'];
    if (!isSwitchyardError(error)) throw error;
  }

  return [
    customer.merchant_customer_id,
    session.checkout_session,
    method.vaulted_token ?? '',
    payment.status,
    subscription.status,
    recipient.id,
    account.id,
    webhook.url,
    clock.now,
    rawStatus,
  ];
}
