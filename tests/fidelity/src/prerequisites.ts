/**
 * The real resources an upstream example needs before it can be sent: created with the real client
 * for the example's merchant, in the state the operation acts on (an authorized payment for a
 * capture, a charged-back one for a dispute, ...). What they yield is the set of ids the example's
 * own ids are swapped for, and the route's path parameters.
 */
import { OPERATING_COUNTRIES, type OperatingCountry } from '@switchyard/contract';
import { fixtures } from '@switchyard/contract/fixtures';
import type { Merchant } from './world.js';

/** The ids an example may name, filled from the resources created for it. */
export interface Ids {
  account_id: string;
  customer_id?: string;
  customer_session?: string;
  checkout_session?: string;
  vaulted_token?: string;
  recipient_id?: string;
}

export interface Prepared {
  ids: Ids;
  /** Our route's path parameters by name. */
  params: Record<string, string>;
}

type Body = Record<string, unknown>;

/** Where an example names an amount, the prerequisite payment uses its currency and covers its value. */
function amountOf(body: Body): { currency: string; value: number } | undefined {
  const amount = body.amount as { currency?: unknown; value?: unknown } | undefined;
  if (!amount || typeof amount.currency !== 'string') return undefined;
  return { currency: amount.currency, value: Number(amount.value) || 0 };
}

/** A country the sandbox accepts with the currency, for the few currencies upstream's follow-up examples use. */
const COUNTRY_OF_CURRENCY: Record<string, OperatingCountry> = { USD: 'US', COP: 'CO', BRL: 'BR', ARS: 'AR', CLP: 'CL', MXN: 'MX' };

/** The example's own country where the sandbox operates there, else one that goes with its currency. */
function countryOf(body: Body, currency: string): OperatingCountry {
  const named = (OPERATING_COUNTRIES as readonly unknown[]).includes(body.country) ? (body.country as OperatingCountry) : undefined;
  return named ?? COUNTRY_OF_CURRENCY[currency] ?? 'AR';
}

async function customer(m: Merchant): Promise<string> {
  return (await m.client.customers.create({ body: fixtures.createCustomer() })).id;
}

async function payment(m: Merchant, body: Body, capture: boolean): Promise<{ id: string; transactionId: string }> {
  const wanted = amountOf(body);
  const currency = wanted?.currency ?? 'ARS';
  const country = COUNTRY_OF_CURRENCY[currency] ?? 'AR';
  const amount = { currency, value: Math.max(wanted?.value ?? 0, 100) * 2 };
  const session = await m.client.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: m.accountId, country, amount } });
  const base = fixtures.createPayment(session.checkout_session);
  const card = base.payment_method.detail?.card;
  const created = await m.client.payments.create({
    body: { ...base, account_id: m.accountId, country, amount, payment_method: { ...base.payment_method, detail: { card: { ...card, capture } } } },
  });
  return { id: created.id, transactionId: transactionIdOf(created.transactions) };
}

/** The id of the transaction a payment answer carries (one object today, a list upstream). */
function transactionIdOf(transactions: unknown): string {
  const first: unknown = Array.isArray(transactions) ? transactions[0] : transactions;
  const id = first && typeof first === 'object' ? (first as { id?: unknown }).id : undefined;
  if (typeof id !== 'string') throw new Error('the prerequisite payment carries no transaction id');
  return id;
}

async function vaultedToken(m: Merchant, customerId: string): Promise<string> {
  const method = await m.client.paymentMethods.enrollDirect({ params: { customer_id: customerId }, body: { ...fixtures.enrollDirect(), account_id: m.accountId } });
  if (!method.vaulted_token) throw new Error('the prerequisite enrollment returned no vaulted token');
  return method.vaulted_token;
}

async function entity(m: Merchant): Promise<string> {
  return (await m.client.banking.createEntity({ body: { ...fixtures.createIndividualEntity(), account_id: m.accountId } })).id;
}

/** Everything the example's route needs, by our contract's route key. */
export async function prepare(routeKey: string, exampleName: string, body: Body, m: Merchant): Promise<Prepared> {
  const ids: Ids = { account_id: m.accountId };
  switch (routeKey) {
    case 'checkout.createSession':
    case 'customers.createSession':
      ids.customer_id = await customer(m);
      return { ids, params: {} };
    case 'paymentMethods.enrollInSession': {
      ids.customer_id = await customer(m);
      const country = countryOf(body, 'ARS');
      const session = await m.client.customers.createSession({ body: { ...fixtures.createCustomerSession(ids.customer_id), account_id: m.accountId, country } });
      ids.customer_session = session.customer_session;
      return { ids, params: { customer_session: session.customer_session } };
    }
    case 'paymentMethods.enrollDirect':
      ids.customer_id = await customer(m);
      return { ids, params: { customer_id: ids.customer_id } };
    case 'payments.create':
    case 'subscriptions.create': {
      ids.customer_id = await customer(m);
      ids.vaulted_token = await vaultedToken(m, ids.customer_id);
      ids.recipient_id = (await m.client.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: m.accountId } })).id;
      const wanted = amountOf(body) ?? { currency: 'ARS', value: 100 };
      const country = countryOf(body, wanted.currency);
      const session = await m.client.checkout.createSession({
        body: { ...fixtures.createCheckoutSession(ids.customer_id), account_id: m.accountId, country, amount: { currency: wanted.currency, value: Math.max(wanted.value, 1) } },
      });
      ids.checkout_session = session.checkout_session;
      return { ids, params: {} };
    }
    case 'payments.refund': {
      const paid = await payment(m, body, true);
      return { ids, params: { id: paid.id, transaction_id: paid.transactionId } };
    }
    case 'payments.cancelOrRefund': {
      // One route cancels an authorization and refunds a capture: the example's name says which.
      const paid = await payment(m, body, !/cancel/i.test(exampleName));
      return { ids, params: { payment_id: paid.id } };
    }
    case 'payments.capture': {
      const authorized = await payment(m, body, false);
      return { ids, params: { payment_id: authorized.id, transaction_id: authorized.transactionId } };
    }
    case 'payments.dispute': {
      // A dispute answers a chargeback: the transaction disputed is the chargeback's.
      const paid = await payment(m, body, true);
      const chargedBack = await m.client.sandbox.chargeback({ params: { payment_id: paid.id }, body: {} });
      return { ids, params: { payment_id: paid.id, transaction_id: transactionIdOf(chargedBack.transactions) } };
    }
    case 'banking.createEntity':
    case 'marketplace.createRecipient':
    case 'checkout.createPaymentLink':
    case 'customers.create':
    case 'webhooks.create':
      return { ids, params: {} };
    case 'banking.createOnboarding':
      return { ids, params: { entity_id: await entity(m) } };
    case 'banking.updateAccount': {
      const entityId = await entity(m);
      const onboarding = await m.client.banking.createOnboarding({ params: { entity_id: entityId }, body: { ...fixtures.createOnboarding(), account_id: m.accountId } });
      const outcome = await m.client.sandbox.onboardingOutcome({ params: { onboarding_id: onboarding.id }, body: { status: 'SUCCEEDED' } });
      if (!outcome.account) throw new Error('the prerequisite onboarding opened no banking account');
      return { ids, params: { account_id: outcome.account.id } };
    }
    case 'webhooks.update': {
      const hook = await m.client.webhooks.create({ body: { ...fixtures.createWebhook(), account_id: m.accountId } });
      return { ids, params: { webhook_id: hook.id } };
    }
    default:
      throw new Error(`no prerequisites known for ${routeKey}: add them here`);
  }
}
