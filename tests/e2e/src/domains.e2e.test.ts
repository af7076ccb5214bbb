import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConflictError, InvalidRequestError, NotFoundError, parseWebhookEvent } from '@switchyard/client';
import { fixtures } from '@switchyard/contract/fixtures';
import { listen } from '@switchyard/tooling/test-server';
import { startWorld, type World } from './sandbox.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.stop());

describe('vaulting and subscriptions through the client', () => {
  it('enrolls a card in a session, completes the SDK step, subscribes and retries a declined cycle', async () => {
    const { client, accountId } = world;
    const customer = await client.customers.create({ body: { merchant_customer_id: 'e2e-vault' } });
    const session = await client.customers.createSession({ body: { account_id: accountId, country: 'AR', customer_id: customer.id } });
    const pending = await client.paymentMethods.enrollInSession({ params: { customer_session: session.customer_session }, body: { ...fixtures.enrollInSession(), account_id: accountId } });
    expect(pending.status).toBe('READY_TO_ENROLL');
    const enrolled = await client.sandbox.completeEnrollment({
      params: { customer_session: session.customer_session, payment_method_id: pending.id },
      body: { card: { number: '4111111111111111', expiration_month: 11, expiration_year: 2030, security_code: '123' } },
    });
    expect(enrolled.status).toBe('ENROLLED');
    const token = enrolled.vaulted_token as string;

    await client.sandbox.scriptOutcomes({ params: { vaulted_token: token }, body: { sequence: ['INSUFFICIENT_FUNDS', 'SUCCEEDED'] } });
    const sub = await client.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId } });
    expect(sub.status).toBe('PAST_DUE');
    const retried = await client.subscriptions.retry({ params: { id: sub.id } });
    expect(retried).toMatchObject({ status: 'ACTIVE', billing_cycles: { current: 1 } });
    await expect(client.subscriptions.retry({ params: { id: sub.id } })).rejects.toMatchObject({ name: 'InvalidRequestError', code: 'INVALID_REQUEST' });
  });

  it('enrolls directly and pays with the vaulted token', async () => {
    const { client, accountId } = world;
    const customer = await client.customers.create({ body: { merchant_customer_id: 'e2e-direct' } });
    const method = await client.paymentMethods.enrollDirect({ params: { customer_id: customer.id }, body: { ...fixtures.enrollDirect(), account_id: accountId } });
    const session = await client.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
    const payment = await client.payments.create({
      body: { ...fixtures.createPayment(session.checkout_session), account_id: accountId, payment_method: { type: 'CARD', vaulted_token: method.vaulted_token } },
    });
    expect(payment).toMatchObject({ status: 'SUCCEEDED', payment_method: { vaulted_token: method.vaulted_token } });
  });
});

describe('marketplace through the client', () => {
  it('creates a recipient, funds it, transfers to it and reverses in two steps', async () => {
    const { client, accountId } = world;
    const recipient = await client.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: accountId } });
    await client.sandbox.fundRecipientBalance({ params: { recipient_id: recipient.id }, body: { amount: { currency: 'BRL', value: 100 } } });
    const transfer = await client.marketplace.createTransfer({ body: { ...fixtures.createTransfer(recipient.id), account_id: accountId } });
    expect(transfer.status).toBe('SUCCEEDED');
    expect(await client.sandbox.getRecipientBalance({ params: { recipient_id: recipient.id } })).toMatchObject({ balances: [{ currency: 'BRL', value: 0 }] });
    await client.marketplace.reverseTransfer({ params: { transfer_id: transfer.id }, body: { ...fixtures.reverseTransfer(), account_id: accountId, amount: { currency: 'BRL', value: 40 } } });
    const done = await client.marketplace.reverseTransfer({ params: { transfer_id: transfer.id }, body: { ...fixtures.reverseTransfer(), account_id: accountId } });
    expect(done).toMatchObject({ status: 'REVERSED' });
    await expect(client.marketplace.reverseTransfer({ params: { transfer_id: 'missing' }, body: { ...fixtures.reverseTransfer(), account_id: accountId } })).rejects.toBeInstanceOf(NotFoundError);
  });

  // Upstream's 400s of Create Standalone Transfer reach the caller as InvalidRequestError with their code.
  it('refuses transfers the provider would: unknown provider, no onboarding, other currency, short balance', async () => {
    const { client, accountId } = world;
    const onboarded = await client.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: accountId, merchant_recipient_id: 'seller-e2e-1' } });
    const never = await client.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: accountId, merchant_recipient_id: 'seller-e2e-2', onboardings: [] } });
    const send = (recipientId: string, change: { provider_id?: string; amount?: { currency: string; value: number } } = {}) =>
      client.marketplace.createTransfer({ body: { ...fixtures.createTransfer(recipientId), account_id: accountId, ...change } });
    const refusal = (promise: Promise<unknown>) => promise.then(() => 'accepted', (e: unknown) => (e instanceof InvalidRequestError ? `${e.status} ${e.code}` : String(e)));
    expect(await refusal(send(onboarded.id, { provider_id: 'NO_SUCH_PSP' }))).toBe('400 PROVIDER_NOT_FOUND');
    expect(await refusal(send(never.id))).toBe('400 ONBOARDING_NOT_VALID');
    expect(await refusal(send(onboarded.id, { amount: { currency: 'USD', value: 1 } }))).toBe('400 CURRENCY_NOT_SUPPORTED');
    expect(await refusal(send(onboarded.id))).toBe('400 INSUFFICIENT_BALANCE');
  });
});

describe('banking through the client', () => {
  it('creates an entity, onboards it, opens and updates the account', async () => {
    const { client, accountId } = world;
    const entity = await client.banking.createEntity({ body: { ...fixtures.createIndividualEntity(), account_id: accountId } });
    await expect(client.banking.createEntity({ body: { ...fixtures.createIndividualEntity(), account_id: accountId } })).rejects.toBeInstanceOf(ConflictError);
    const onboarding = await client.banking.createOnboarding({ params: { entity_id: entity.id }, body: { ...fixtures.createOnboarding(), account_id: accountId } });
    const { account } = await client.sandbox.onboardingOutcome({ params: { onboarding_id: onboarding.id }, body: { status: 'SUCCEEDED' } });
    const updated = await client.banking.updateAccount({ params: { account_id: account?.id as string }, body: { account_id: accountId, account_type: 'INVESTMENT' } });
    expect(updated).toMatchObject({ account_type: 'INVESTMENT', status: 'ACTIVE' });
    const missing = fixtures.createOnboarding();
    delete missing.compliance_declaration;
    await expect(client.banking.createOnboarding({ params: { entity_id: entity.id }, body: { ...missing, account_id: accountId } })).rejects.toMatchObject({
      constructor: InvalidRequestError,
      code: 'VALIDATION_ERROR',
      raw: { http_code: 400 },
    });
  });
});

const DELIVERY_WAIT = { timeout: 30_000, interval: 20 };

describe('webhooks through the client', () => {
  // Two waits of up to 30 s each: the test's own bound covers both, so a hang is reported by the wait that hung.
  it('registers a webhook, sees its deliveries, and verifies a delivered event', { timeout: 120_000 }, async () => {
    const bodies: { body: string; signature: string }[] = [];
    const receiver = await listen((req, res) => {
      let body = '';
      req.on('data', (c) => (body += String(c)));
      req.on('end', () => {
        bodies.push({ body, signature: String(req.headers['x-hmac-signature']) });
        res.writeHead(200).end();
      });
    });
    try {
      const { client, accountId } = world;
      const hook = await client.webhooks.create({ body: { account_id: accountId, name: 'e2e', url: `${receiver.url}/hooks`, hmac_client_secret: 'e2e-secret-1', subscription_triggers: ['CREATE'] } });
      expect(hook.hmac_client_secret).toBe('***');
      const customer = await client.customers.create({ body: { merchant_customer_id: 'e2e-hooks' } });
      const method = await client.paymentMethods.enrollDirect({ params: { customer_id: customer.id }, body: { ...fixtures.enrollDirect(), account_id: accountId } });
      await client.subscriptions.create({ body: { ...fixtures.createSubscription(method.vaulted_token), account_id: accountId } });
      // Delivery is asynchronous: wait for it, with a hang detector's bound rather than a speed goal.
      const delivered = await vi.waitFor(() => {
        const found = bodies.find((b) => b.body.includes('"subscription.create"'));
        if (!found) throw new Error('no subscription.create delivery yet');
        return found;
      }, DELIVERY_WAIT);
      const event = await parseWebhookEvent(delivered.body, delivered.signature, 'e2e-secret-1');
      expect(event).toMatchObject({ type: 'subscription', type_event: 'subscription.create' });
      // Created without customer_payer or trial_period: both left out, never null (docs/fidelity.md, "Absent values").
      if (event.type !== 'subscription') throw new Error('narrowing');
      expect(event.data.subscription).not.toHaveProperty('customer_payer');
      expect(event.data.subscription).not.toHaveProperty('trial_period');
      // The receiver has the body before the sandbox records the 200 it answered: ask until it has.
      const isDelivered = async () => (await client.sandbox.listWebhookDeliveries({ query: { webhook_id: hook.id } })).some((d) => d.event_type === 'subscription.create' && d.state === 'delivered');
      await vi.waitFor(async () => expect(await isDelivered()).toBe(true), DELIVERY_WAIT);
      await client.webhooks.delete({ params: { webhook_id: hook.id }, query: { account_id: accountId } });
    } finally {
      await receiver.close();
    }
  });
});
