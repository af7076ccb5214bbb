import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { Subscription, type SandboxMerchant } from '@switchyard/contract';
import { clientsFor, idemKey, newMerchant, startSandbox, type Clients, type RunningSandbox } from '../test-support/harness.js';
import { sandboxForSuite } from '../test-support/stores.js';
import { MemoryStore } from '../store/memory.js';
import type { SubscriptionState } from '../domain/subscriptions.js';

const sb = sandboxForSuite({ seed: 'subscriptions' });

const DAY = 86400;

/** Each test gets its own merchant: its own clock. */
async function world(card = '4111111111111111') {
  const merchant: SandboxMerchant = await newMerchant(sb.url);
  const clients: Clients = clientsFor(sb.url, merchant);
  const accountId = merchant.account_ids[0] as string;
  const customer = await clients.customers.create({ body: { merchant_customer_id: 'sub-cust' } });
  if (customer.status !== 201) throw new Error('setup');
  const body = fixtures.enrollDirect();
  const method = await clients.paymentMethods.enrollDirect({
    params: { customer_id: customer.body.id },
    body: { ...body, account_id: accountId, card_data: { ...body.card_data!, number: card } },
    headers: { 'x-idempotency-key': idemKey() },
  });
  if (method.status !== 200) throw new Error('setup');
  return { clients, accountId, token: method.body.vaulted_token, customerId: customer.body.id };
}

const payments = async (clients: Clients, subscriptionId: string) => {
  const events = await clients.sandbox.listEvents({ query: { type: 'subscription.cycle_executed', resource_id: subscriptionId } });
  return events.status === 200 ? events.body : [];
};

describe('subscriptions', () => {
  // Upstream answers `soft_descriptor` and a `subscription_agreement_id`
  // (`sa_` and a UUID); its plan fields are "only present on plan-linked subscriptions", which the
  // sandbox does not create (Create Subscription).
  it('echoes the soft descriptor ("" when none), issues an agreement id, and answers no plan fields', async () => {
    const { clients, accountId, token } = await world();
    const named = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId, soft_descriptor: 'GOLD PLAN' } });
    expect(named).toMatchObject({ status: 200, body: { soft_descriptor: 'GOLD PLAN' } });
    if (named.status !== 200) return;
    expect(named.body.subscription_agreement_id).toMatch(/^sa_[0-9a-f-]{36}$/);
    for (const field of ['plan_id', 'plan_assigned_at', 'current_phase', 'billing_phases', 'previous_subscription_id']) expect(named.body).not.toHaveProperty(field);
    const plain = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId } });
    expect(plain).toMatchObject({ status: 200, body: { soft_descriptor: '' } });
    if (plain.status === 200) expect(plain.body.subscription_agreement_id).not.toBe(named.body.subscription_agreement_id);
  });

  // §2.10 types `description` and `merchant_reference` strings, as upstream does
  // (Create Subscription): one not sent is "", never null (docs/fidelity.md, "Absent values").
  it('answers a description and merchant_reference not sent as "", on creation and retrieval', async () => {
    const { clients, accountId, token } = await world();
    const { name, country, amount, payment_method } = fixtures.createSubscription(token);
    const res = await clients.subscriptions.create({ body: { name, account_id: accountId, country, amount, payment_method } });
    expect(res).toMatchObject({ status: 200, body: { description: '', merchant_reference: '' } });
    if (res.status !== 200) return;
    expect(await clients.subscriptions.get({ params: { id: res.body.id } })).toMatchObject({ status: 200, body: { description: '', merchant_reference: '' } });
    const named = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId, description: 'Gold', merchant_reference: 'sub-ref-1' } });
    expect(named).toMatchObject({ status: 200, body: { description: 'Gold', merchant_reference: 'sub-ref-1' } });
  });

  // §2.10 types customer_payer and trial_period (with its amount) objects, none nullable, as
  // upstream does (Create Subscription): one the request did not send is left out, never null
  // (docs/fidelity.md, "Absent values").
  it('leaves out a customer_payer and a trial_period not sent, on creation, retrieval and retry', async () => {
    const { clients, accountId, token } = await world();
    await clients.sandbox.scriptOutcomes({ params: { vaulted_token: token }, body: { sequence: ['DECLINED'] } });
    const created = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId, retries: { retry_on_decline: false } } });
    expect(created).toMatchObject({ status: 200, body: { status: 'PAST_DUE' } });
    if (created.status !== 200) return;
    const got = await clients.subscriptions.get({ params: { id: created.body.id } });
    const retried = await clients.subscriptions.retry({ params: { id: created.body.id } });
    expect(retried).toMatchObject({ status: 200, body: { status: 'ACTIVE' } });
    for (const answer of [created, got, retried]) {
      expect(answer.body).not.toHaveProperty('customer_payer');
      expect(answer.body).not.toHaveProperty('trial_period');
      expect(Subscription.safeParse(answer.body).success).toBe(true);
    }
    // The cycle's payment keeps the payment's own rule: a customer_payer not sent is {} (docs/sandbox-payments.md, "The payment body").
    const purchases = await clients.sandbox.listEvents({ query: { type: 'payment.purchase' } });
    if (purchases.status !== 200) throw new Error('events');
    const first = await clients.payments.get({ params: { payment_id: purchases.body[0]?.resource_id as string } });
    expect(first).toMatchObject({ status: 200, body: { subscription_code: created.body.id } });
    if (first.status === 200) expect(first.body.customer_payer).toEqual({});
  });

  it('answers a trial sent without an amount with its cycles alone, and charges the subscription amount during it', async () => {
    const { clients, accountId, token, customerId } = await world();
    const created = await clients.subscriptions.create({
      body: { ...fixtures.createSubscription(token), account_id: accountId, customer_payer: { id: customerId }, trial_period: { billing_cycles: 2 } },
    });
    expect(created).toMatchObject({ status: 200, body: { status: 'TRIALING', customer_payer: { id: customerId } } });
    if (created.status !== 200) return;
    expect(created.body.trial_period).toEqual({ billing_cycles: 2 });
    expect(Subscription.safeParse(created.body).success).toBe(true);
    const purchases = await clients.sandbox.listEvents({ query: { type: 'payment.purchase' } });
    if (purchases.status !== 200) throw new Error('events');
    const first = await clients.payments.get({ params: { payment_id: purchases.body[0]?.resource_id as string } });
    expect(first).toMatchObject({ status: 200, body: { amount: { value: 25 }, subscription_code: created.body.id, customer_payer: { id: customerId } } });
  });

  it('creates an ACTIVE subscription (200) and charges the first cycle at once', async () => {
    const { clients, accountId, token, customerId } = await world();
    const res = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId, customer_payer: { id: customerId } } });
    expect(res).toMatchObject({ status: 200, body: { status: 'ACTIVE', billing_cycles: { total: 12, current: 1 }, amount: { value: 25, currency: 'ARS' }, customer_payer: { id: customerId } } });
    if (res.status !== 200) return;
    expect(Date.parse(res.body.billing_cycles.next_at as string) - Date.parse(res.body.created_at)).toBeGreaterThan(27 * DAY * 1000);
  });

  // Upstream: Create Subscription sends a past start_at with 12 cycles and answers
  // ACTIVE, current 1. The past cycles are not charged; billing runs from the creation.
  it('starts a subscription whose start_at is past at its creation: one cycle charged, the next a period later', async () => {
    const { clients, accountId, token } = await world();
    const clock = await clients.sandbox.getClock();
    if (clock.status !== 200) throw new Error('clock');
    const yearAgo = new Date(Date.parse(clock.body.now) - 365 * DAY * 1000).toISOString();
    const res = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId, availability: { start_at: yearAgo } } });
    expect(res).toMatchObject({ status: 200, body: { status: 'ACTIVE', billing_cycles: { total: 12, current: 1 } } });
    if (res.status !== 200) return;
    expect(res.body.availability.start_at).toBe(res.body.created_at);
    expect(Date.parse(res.body.billing_cycles.next_at as string) - Date.parse(res.body.created_at)).toBeGreaterThan(27 * DAY * 1000);
    expect(await payments(clients, res.body.id)).toHaveLength(1);
  });

  it('charges every cycle that falls due when the clock advances, and completes', async () => {
    const { clients, accountId, token } = await world();
    const created = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId, frequency: { type: 'DAY', value: 1 }, billing_cycles: { total: 5 } } });
    if (created.status !== 200) throw new Error('setup');
    await clients.sandbox.advanceClock({ body: { seconds: 2 * DAY } });
    expect(await clients.subscriptions.get({ params: { id: created.body.id } })).toMatchObject({ status: 200, body: { billing_cycles: { current: 3 }, status: 'ACTIVE' } });
    await clients.sandbox.advanceClock({ body: { seconds: 10 * DAY } });
    const done = await clients.subscriptions.get({ params: { id: created.body.id } });
    // No next cycle: next_at, a date-time string §2.10 does not mark nullable, is "" (docs/fidelity.md, "Absent values").
    expect(done).toMatchObject({ status: 200, body: { status: 'COMPLETED', billing_cycles: { current: 5, next_at: '' } } });
    expect(Subscription.safeParse(done.body).success).toBe(true);
    expect(await payments(clients, created.body.id)).toHaveLength(5);
  });

  // Create Subscription: trial_period.billing_cycles "If not set, defaults to 1 (MIN 1)".
  it('takes a trial sent without billing_cycles as one cycle', async () => {
    const { clients, accountId, token } = await world();
    const body = { ...fixtures.createSubscription(token), account_id: accountId, trial_period: { amount: { currency: 'ARS', value: 0 } } };
    const created = await clients.subscriptions.create({ body });
    expect(created).toMatchObject({ status: 200, body: { trial_period: { billing_cycles: 1, amount: { currency: 'ARS', value: 0 } } } });
  });

  it('bills the trial amount during the trial, then the plan amount', async () => {
    const { clients, accountId, token } = await world();
    const created = await clients.subscriptions.create({
      body: { ...fixtures.createSubscription(token), account_id: accountId, frequency: { type: 'WEEK', value: 1 }, trial_period: { billing_cycles: 1, amount: { currency: 'ARS', value: 1 } } },
    });
    expect(created).toMatchObject({ status: 200, body: { status: 'ACTIVE', trial_period: { billing_cycles: 1, amount: { value: 1 } } } });
    const purchases = await clients.sandbox.listEvents({ query: { type: 'payment.purchase' } });
    if (purchases.status !== 200 || created.status !== 200) throw new Error('events');
    const first = await clients.payments.get({ params: { payment_id: purchases.body[0]?.resource_id as string } });
    expect(first).toMatchObject({ status: 200, body: { amount: { value: 1 }, subscription_code: created.body.id, checkout: { session: '' } } });
  });

  it('goes PAST_DUE on a decline; manual retries follow §4.13 and a scripted success resumes billing', async () => {
    const { clients, accountId, token } = await world();
    await clients.sandbox.scriptOutcomes({ params: { vaulted_token: token }, body: { sequence: ['DECLINED', 'ERROR'] } });
    const created = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId, retries: { retry_on_decline: false } } });
    expect(created).toMatchObject({ status: 200, body: { status: 'PAST_DUE', billing_cycles: { current: 0 } } });
    if (created.status !== 200) return;
    const id = created.body.id;
    // First manual retry: the scripted ERROR.
    expect(await clients.subscriptions.retry({ params: { id } })).toMatchObject({ status: 200, body: { status: 'PAST_DUE' } });
    // The previous retry ended ERROR, not DECLINED: refused with INVALID_REQUEST.
    expect(await clients.subscriptions.retry({ params: { id } })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [expect.stringContaining('ended ERROR')] } });

    const again = await world();
    await again.clients.sandbox.scriptOutcomes({ params: { vaulted_token: again.token }, body: { sequence: ['DECLINED', 'INSUFFICIENT_FUNDS', 'SUCCEEDED'] } });
    const sub = await again.clients.subscriptions.create({ body: { ...fixtures.createSubscription(again.token), account_id: again.accountId, retries: { retry_on_decline: false } } });
    if (sub.status !== 200) throw new Error('setup');
    expect(await again.clients.subscriptions.retry({ params: { id: sub.body.id } })).toMatchObject({ status: 200, body: { status: 'PAST_DUE' } });
    const ok = await again.clients.subscriptions.retry({ params: { id: sub.body.id } });
    expect(ok).toMatchObject({ status: 200, body: { status: 'ACTIVE', billing_cycles: { current: 1 } } });
    expect(await again.clients.subscriptions.retry({ params: { id: sub.body.id } })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [expect.stringContaining('did not fail')] } });
    await again.clients.sandbox.advanceClock({ body: { seconds: 32 * DAY } });
    expect(await again.clients.subscriptions.get({ params: { id: sub.body.id } })).toMatchObject({ status: 200, body: { status: 'ACTIVE', billing_cycles: { current: 2 } } });
  });

  it('smart-retries a declined cycle daily when enabled, until a manual retry stops it', async () => {
    const { clients, accountId, token } = await world();
    await clients.sandbox.scriptOutcomes({ params: { vaulted_token: token }, body: { sequence: ['DECLINED', 'DECLINED', 'SUCCEEDED'] } });
    const created = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId, retries: { retry_on_decline: true, amount: 3 } } });
    if (created.status !== 200) throw new Error('setup');
    expect(created.body.status).toBe('PAST_DUE');
    await clients.sandbox.advanceClock({ body: { seconds: DAY } });
    expect(await clients.subscriptions.get({ params: { id: created.body.id } })).toMatchObject({ status: 200, body: { status: 'PAST_DUE' } });
    await clients.sandbox.advanceClock({ body: { seconds: DAY } });
    expect(await clients.subscriptions.get({ params: { id: created.body.id } })).toMatchObject({ status: 200, body: { status: 'ACTIVE', billing_cycles: { current: 1 } } });
  });

  it('refuses an unknown subscription, an unknown vaulted token and a foreign account code', async () => {
    const { clients, accountId, token } = await world();
    expect(await clients.subscriptions.retry({ params: { id: '00000000-0000-4000-8000-000000000000' } })).toMatchObject({ status: 400, body: { code: 'SUBSCRIPTION_NOT_FOUND' } });
    expect(await clients.subscriptions.create({ body: { ...fixtures.createSubscription('nope'), account_id: accountId } })).toMatchObject({ status: 400, body: { code: 'PAYMENT_METHOD_NOT_FOUND' } });
    const created = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(token), account_id: accountId } });
    if (created.status !== 200) throw new Error('setup');
    const other = await newMerchant(sb.url);
    expect(await clients.subscriptions.retry({ params: { id: created.body.id }, headers: { 'x-account-code': other.account_ids[0] as string } })).toMatchObject({ status: 403, body: { code: 'AUTHORIZATION_REQUIRED' } });
  });
});

// 0.2.0 stored subscriptions without soft_descriptor and subscription_agreement_id (added since);
// a PostgreSQL store kept from then answers them as a subscription made now does.
describe('a subscription stored by 0.2.0', () => {
  const store = new MemoryStore();
  let old: RunningSandbox;
  beforeAll(async () => {
    old = await startSandbox({ seed: 'subscriptions-0.2.0' }, { store });
  });
  afterAll(() => old.stop());

  it('answers soft_descriptor "" and an agreement id that stays the same, and the answer fits the contract', async () => {
    const merchant = await newMerchant(old.url);
    const clients = clientsFor(old.url, merchant);
    const accountId = merchant.account_ids[0] as string;
    const customer = await clients.customers.create({ body: { merchant_customer_id: 'old-sub' } });
    if (customer.status !== 201) throw new Error('setup');
    const method = await clients.paymentMethods.enrollDirect({ params: { customer_id: customer.body.id }, body: { ...fixtures.enrollDirect(), account_id: accountId }, headers: { 'x-idempotency-key': idemKey() } });
    if (method.status !== 200) throw new Error('setup');
    const created = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(method.body.vaulted_token), account_id: accountId } });
    if (created.status !== 200) throw new Error('setup');
    await store.withTransaction(merchant.id, async (tx) => {
      const { soft_descriptor: _s, subscription_agreement_id: _a, ...asKept } = (await tx.get<SubscriptionState>('subscription', created.body.id)) as SubscriptionState;
      await tx.put('subscription', created.body.id, asKept);
    });
    const first = await clients.subscriptions.get({ params: { id: created.body.id } });
    expect(first).toMatchObject({ status: 200, body: { soft_descriptor: '', subscription_agreement_id: `sa_${created.body.id}` } });
    expect(Subscription.safeParse(first.body).success).toBe(true);
    expect((await clients.subscriptions.get({ params: { id: created.body.id } })).body).toMatchObject({ subscription_agreement_id: `sa_${created.body.id}` });
  });
});
