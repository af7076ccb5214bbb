import { afterAll, beforeAll } from 'vitest';
import { createClient } from '@switchyard/client';
import type { SandboxMerchant } from '@switchyard/contract';
import { fixtures } from '@switchyard/contract/fixtures';
import { loadConfig, type SandboxConfig } from '../config.js';
import { createSandbox, type Sandbox, type SandboxOverrides } from '../sandbox.js';

export interface RunningSandbox {
  url: string;
  sandbox: Sandbox;
  stop(): Promise<void>;
}

/** A real sandbox on an ephemeral port, validating its own responses against the contract. */
export async function startSandbox(overrides: Partial<SandboxConfig> = {}, parts: SandboxOverrides = {}): Promise<RunningSandbox> {
  const base = loadConfig([], {}) as SandboxConfig;
  const sandbox = await createSandbox({ ...base, port: 0, logLevel: 'silent', responseValidation: true, ...overrides }, parts);
  const url = await sandbox.start();
  return { url, sandbox, stop: () => sandbox.stop() };
}

export function keysOf(merchant: Pick<SandboxMerchant, 'public_api_key' | 'private_secret_key'>) {
  return { 'public-api-key': merchant.public_api_key, 'private-secret-key': merchant.private_secret_key };
}

/**
 * The real client for one merchant, in its raw style (`{status, body, headers}`) so tests can
 * assert on error statuses; retries are off so every response is the server's first answer.
 */
export function clientsFor(url: string, merchant: Pick<SandboxMerchant, 'public_api_key' | 'private_secret_key'>) {
  const client = createClient({ baseUrl: url, publicApiKey: merchant.public_api_key, privateSecretKey: merchant.private_secret_key, maxRetries: 0 });
  return {
    customers: client.customers.raw,
    checkout: client.checkout.raw,
    paymentMethods: client.paymentMethods.raw,
    payments: client.payments.raw,
    subscriptions: client.subscriptions.raw,
    marketplace: client.marketplace.raw,
    banking: client.banking.raw,
    webhooks: client.webhooks.raw,
    sandbox: client.sandbox.raw,
  };
}

/** A fresh, isolated merchant: tests never see each other's data. */
export async function newMerchant(url: string): Promise<SandboxMerchant> {
  return createClient({ baseUrl: url, publicApiKey: 'none', privateSecretKey: 'none', maxRetries: 0 }).sandbox.createMerchant({ body: { name: 'test merchant' } });
}

export type Clients = ReturnType<typeof clientsFor>;

let keyCounter = 0;
export const idemKey = () => `test-key-${process.pid}-${Date.now()}-${++keyCounter}`;

/** Creates a checkout session and pays it with `card`; returns the payment. */
export async function pay(
  clients: Clients,
  merchant: SandboxMerchant,
  options: { card?: string; value?: number; capture?: boolean; description?: string; currency?: string } = {},
) {
  const accountId = merchant.account_ids[0] as string;
  const value = options.value ?? 99.99;
  const currency = options.currency ?? 'ARS';
  const session = await clients.checkout.createSession({
    body: { ...fixtures.createCheckoutSession(), account_id: accountId, amount: { currency, value } },
  });
  if (session.status !== 200) throw new Error(`checkout session: ${JSON.stringify(session.body)}`);
  const body = fixtures.createPayment(session.body.checkout_session, options.card ?? '4111111111111111');
  body.account_id = accountId;
  body.amount = { currency, value };
  if (options.description) body.description = options.description;
  const card = body.payment_method.detail?.card;
  if (card && options.capture !== undefined) card.capture = options.capture;
  const payment = await clients.payments.create({ body, headers: { 'x-idempotency-key': idemKey() } });
  if (payment.status !== 201) throw new Error(`payment: ${payment.status} ${JSON.stringify(payment.body)}`);
  return payment.body;
}

/** A customer of `accountId` with a card (4111…) enrolled directly, and the subscription it pays: what a world with billing starts from. */
export async function subscribedCustomer(clients: Clients, accountId: string, merchantCustomerId: string) {
  const customer = await clients.customers.create({ body: { merchant_customer_id: merchantCustomerId } });
  if (customer.status !== 201) throw new Error('customer');
  const enrolled = fixtures.enrollDirect();
  const method = await clients.paymentMethods.enrollDirect({
    params: { customer_id: customer.body.id },
    body: { ...enrolled, account_id: accountId, card_data: { ...enrolled.card_data!, number: '4111111111111111' } },
    headers: { 'x-idempotency-key': idemKey() },
  });
  if (method.status !== 200) throw new Error('enrollment');
  const subscription = await clients.subscriptions.create({ body: { ...fixtures.createSubscription(method.body.vaulted_token), account_id: accountId } });
  if (subscription.status !== 200) throw new Error(`subscription: ${JSON.stringify(subscription.body)}`);
  return { customerId: customer.body.id, subscriptionId: subscription.body.id };
}

/** A raw request, for what the typed client cannot send (bad JSON, wrong methods, missing keys). */
export function raw(url: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  return fetch(`${url}${path}`, init).then(async (res) => ({ status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as Record<string, unknown> | null }));
}

/** Waits until the payment shows a refund in progress (the slow provider's first step committed). */
export async function refundPending(clients: Clients, paymentId: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await clients.payments.get({ params: { payment_id: paymentId } });
    const latest = res.status === 200 ? res.body.transactions.at(-1) : undefined;
    if (latest?.type === 'REFUND' && latest.status === 'PENDING') return;
    if (Date.now() > deadline) throw new Error(`no refund of ${paymentId} went in progress in time`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface World {
  sb: RunningSandbox;
  merchant: SandboxMerchant;
  clients: Clients;
  accountId: string;
}

/**
 * A sandbox and a fresh merchant for one test file: started before its tests, stopped after.
 * The returned object is filled in by the time the tests run.
 */
export function sandboxWithMerchant(overrides: Partial<SandboxConfig> = {}): World {
  const world = {} as World;
  beforeAll(async () => {
    world.sb = await startSandbox(overrides);
    world.merchant = await newMerchant(world.sb.url);
    world.clients = clientsFor(world.sb.url, world.merchant);
    world.accountId = world.merchant.account_ids[0] as string;
  });
  afterAll(() => world.sb.stop());
  return world;
}
