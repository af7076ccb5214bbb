import { fixtures } from '@switchyard/contract/fixtures';
import type { SandboxMerchant, Snapshot } from '@switchyard/contract';
import { clientsFor, idemKey, newMerchant, pay, subscribedCustomer, type Clients } from './harness.js';
import { eventually } from './receiver.js';

const key = () => ({ 'x-idempotency-key': idemKey() });
const uuidKey = () => ({ 'x-idempotency-key': crypto.randomUUID() });

/** The answer's body when it has `status`, else an error naming the step and the answer. */
async function expectStatus<R extends { status: number; body: unknown }, S extends R['status']>(step: string, status: S, call: Promise<R>): Promise<Extract<R, { status: S }>['body']> {
  const res = await call;
  if (res.status !== status) throw new Error(`${step}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Extract<R, { status: S }>['body'];
}

/**
 * A merchant holding a record of every kind, in the states the API leads them through: payments
 * refunded in part, captured in part, charged back and lost, in dispute, waiting for a 3-D Secure
 * challenge and for a PIX payer (with its payer page); customers with a session and a direct
 * enrollment; a subscription; a payment link; a recipient with a balance and a transfer reversed in
 * part; a banking entity onboarded with its account; a webhook with its deliveries, events,
 * idempotency records, a fault rule and a webhook chaos rule. `snapshot` is its export.
 */
export async function buildEveryKind(url: string): Promise<{ merchant: SandboxMerchant; clients: Clients; snapshot: Snapshot }> {
  const merchant = await newMerchant(url);
  const clients = clientsFor(url, merchant);
  const accountId = merchant.account_ids[0] as string;

  await expectStatus('webhook', 201, clients.webhooks.create({ body: { ...fixtures.createWebhook(), account_id: accountId, payment_triggers: ['PURCHASE', 'REFUND', 'CAPTURE'] } }));
  await expectStatus('chaos', 201, clients.sandbox.createWebhookChaos({ body: { effect: { type: 'reorder' }, times: 1 } }));
  await expectStatus('fault rule', 201, clients.sandbox.createFaultRule({ body: { match: { operation_id: 'getCustomer' }, effect: { type: 'latency', ms: 10 } } }));

  const { customerId } = await subscribedCustomer(clients, accountId, 'every-kind');
  const session = await expectStatus('customer session', 201, clients.customers.createSession({ body: { account_id: accountId, country: 'AR', customer_id: customerId } }));
  const method = await expectStatus(
    'session enrollment',
    201,
    clients.paymentMethods.enrollInSession({ params: { customer_session: session.customer_session }, body: { ...fixtures.enrollInSession(), account_id: accountId }, headers: key() }),
  );
  await expectStatus(
    'enrollment step',
    200,
    clients.sandbox.completeEnrollment({
      params: { customer_session: session.customer_session, payment_method_id: method.id },
      body: { card: { number: '4111111111111111', expiration_month: 11, expiration_year: 2030, security_code: '123', holder_name: 'ADA LOVELACE' } },
    }),
  );

  const refunded = await pay(clients, merchant);
  await expectStatus('refund', 200, clients.payments.refund({ params: { id: refunded.id, transaction_id: refunded.transactions?.id as string }, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 10.01 } }, headers: key() }));
  const authorized = await pay(clients, merchant, { capture: false });
  await expectStatus('capture', 200, clients.payments.capture({ params: { payment_id: authorized.id, transaction_id: authorized.transactions?.id as string }, body: { ...fixtures.capture(), amount: { currency: 'ARS', value: 50 } }, headers: key() }));
  const lost = await pay(clients, merchant);
  await expectStatus('chargeback', 200, clients.sandbox.chargeback({ params: { payment_id: lost.id }, body: { amount: 40 } }));
  await expectStatus('dispute lost', 200, clients.sandbox.disputeOutcome({ params: { payment_id: lost.id }, body: { outcome: 'LOST' } }));
  const disputed = await pay(clients, merchant);
  await expectStatus('open chargeback', 200, clients.sandbox.chargeback({ params: { payment_id: disputed.id }, body: {} }));
  await pay(clients, merchant, { card: '4916994064252017' });
  const pix = { account_id: accountId, merchant_order_id: 'order-pix', description: 'Pay with PIX', country: 'BR', amount: { currency: 'BRL', value: 120.5 }, workflow: 'DIRECT', payment_method: { type: 'PIX' } } as const;
  const paid = await expectStatus('PIX payment', 201, clients.payments.create({ body: pix, headers: key() }));
  await expectStatus('PIX payer', 200, clients.sandbox.payerOutcome({ params: { payment_id: paid.id }, body: { outcome: 'SUCCEEDED' } }));
  await expectStatus('PIX waiting', 201, clients.payments.create({ body: { ...pix, merchant_order_id: 'order-pix-2' }, headers: key() }));
  await expectStatus('link', 200, clients.checkout.createPaymentLink({ body: { ...fixtures.createPaymentLink(), account_id: accountId, availability: { finish_at: '2099-01-01T00:00:00Z' } } }));

  const recipient = await expectStatus('recipient', 201, clients.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: accountId } }));
  await expectStatus('fund', 200, clients.sandbox.fundRecipientBalance({ params: { recipient_id: recipient.id }, body: { amount: { currency: 'BRL', value: 1000 } } }));
  const transfer = await expectStatus('transfer', 201, clients.marketplace.createTransfer({ body: { ...fixtures.createTransfer(recipient.id), account_id: accountId }, headers: key() }));
  await expectStatus('reversal', 200, clients.marketplace.reverseTransfer({ params: { transfer_id: transfer.id }, body: { ...fixtures.reverseTransfer(), account_id: accountId, amount: { currency: 'BRL', value: 25 } }, headers: key() }));

  const entity = await expectStatus('entity', 201, clients.banking.createEntity({ body: { ...fixtures.createIndividualEntity(), account_id: accountId }, headers: uuidKey() }));
  const onboarding = await expectStatus('onboarding', 201, clients.banking.createOnboarding({ params: { entity_id: entity.id }, body: { ...fixtures.createOnboarding(), account_id: accountId }, headers: uuidKey() }));
  await expectStatus('onboarding outcome', 200, clients.sandbox.onboardingOutcome({ params: { onboarding_id: onboarding.id }, body: { status: 'SUCCEEDED' } }));

  // Every delivery tried once before the export: its next try is minutes away, so a sandbox that
  // imports the snapshot has nothing due, and what it exports is what it imported. Exported while
  // one was due, the importer's worker could try it before the importer's own export.
  await eventually(async () => {
    const res = await expectStatus('deliveries', 200, clients.sandbox.listWebhookDeliveries({ query: { limit: 1000 } }));
    return res.length > 0 && res.every((d) => d.attempts.length > 0) ? true : undefined;
  });
  const snapshot = await expectStatus('export', 200, clients.sandbox.exportSnapshot());
  return { merchant, clients, snapshot };
}
