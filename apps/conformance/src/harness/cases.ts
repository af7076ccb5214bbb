import { contract, IDEMPOTENCY_HEADER, listRoutes, sandboxContract, unwrapSchema, type ListedRoute } from '@switchyard/contract';
import { fixtures as examples } from '@switchyard/contract/fixtures';
import type { ZodTypeAny } from 'zod';
import { RESPONSE_CHECKS, type CheckName } from './checks.js';
import type { World } from './world.js';

/** The arguments of one call of a route through the client (`params`, `query`, `body`, `headers`). */
export interface CallArgs {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface OperationCase extends ListedRoute {
  /** The client's domain key (`payments`, `sandbox`, ...). */
  domainKey: string;
  /** The route's name within the domain (`refund`). */
  name: string;
  /** Brings the state the call needs into being and returns valid arguments (throws Unavailable when it cannot). */
  prepare(w: World): Promise<CallArgs>;
}

type Prepare = (w: World) => Promise<CallArgs>;

type Contract = typeof contract;
/** Every route key of the contract (`payments.refund`) and of the control API (`sandbox.reset`), from their types. */
type RouteKey =
  | { [D in keyof Contract]: `${D & string}.${keyof Contract[D] & string}` }[keyof Contract]
  | `sandbox.${keyof typeof sandboxContract & string}`;

const account = (w: World) => w.me.accountId;

/** A fault rule that matches nothing the suite sends (docs/faults.md). */
const INERT_FAULT_RULE = {
  match: { header: { name: 'x-conformance-never-sent', value: 'never' } },
  effect: { type: 'status', status: 503 },
} as const;

/** Routes whose valid request must act on a throwaway tenant (their case makes one, `World.resetIdentity`): they wipe, fill or lock out the merchant they act on. */
export const THROWAWAY_TENANT_ROUTES: ReadonlySet<string> = new Set<RouteKey>(['sandbox.reset', 'sandbox.importSnapshot', 'sandbox.rotateSecretKey']);

/** How to call each route validly: a route added to the contract without its case here fails the typecheck. */
const PREPARE = {
  'customers.create': async (w) => ({ body: { ...examples.createCustomer(), merchant_customer_id: w.unique('cust') } }),
  'customers.get': async (w) => ({ params: { customer_id: await w.customerId() } }),
  'customers.createSession': async (w) => ({ body: { account_id: account(w), country: 'AR', customer_id: await w.customerId() } }),
  'checkout.createSession': async (w) => ({ body: { ...examples.createCheckoutSession(), account_id: account(w) } }),
  'checkout.createPaymentLink': async (w) => ({ body: { ...examples.createPaymentLink(), account_id: account(w), availability: { finish_at: '2099-01-01T00:00:00Z' } } }),
  'paymentMethods.enrollInSession': async (w) => ({ params: { customer_session: await w.customerSession() }, body: { ...examples.enrollInSession(), account_id: account(w) } }),
  'paymentMethods.enrollDirect': async (w) => ({ params: { customer_id: await w.customerId() }, body: { ...examples.enrollDirect(), account_id: account(w) } }),
  'payments.create': async (w) => ({ body: w.paymentBody(await w.checkoutSession()) }),
  'payments.get': async (w) => ({ params: { payment_id: (await w.capturedPayment()).paymentId } }),
  'payments.refund': async (w) => {
    const p = await w.capturedPayment();
    return { params: { id: p.paymentId, transaction_id: p.transactionId }, body: { ...examples.refund(), amount: { currency: 'ARS', value: 1 } } };
  },
  'payments.capture': async (w) => {
    const p = await w.authorizedPayment();
    // The amount is required (upstream Capture Authorization): capture the whole authorization,
    // in its own currency, so a staging fixture of any amount works.
    const { amount } = await w.client.payments.get({ params: { payment_id: p.paymentId } });
    return { params: { payment_id: p.paymentId, transaction_id: p.transactionId }, body: { ...examples.capture(), amount: { currency: amount.currency, value: amount.value } } };
  },
  'payments.cancelOrRefund': async (w) => ({ params: { payment_id: (await w.authorizedPayment()).paymentId }, body: examples.cancelOrRefund() }),
  'payments.dispute': async (w) => {
    const cb = await w.chargeback();
    return { params: { payment_id: cb.paymentId, transaction_id: cb.transactionId }, body: w.evidence() };
  },
  'subscriptions.create': async (w) => ({ body: { ...examples.createSubscription(await w.vaultedToken()), account_id: account(w) } }),
  'subscriptions.get': async (w) => ({ params: { id: await w.subscription() } }),
  'subscriptions.retry': async (w) => ({ params: { id: (await w.declinedSubscription()).id } }),
  'marketplace.createRecipient': async (w) => ({ body: { ...examples.createRecipient(), account_id: account(w) } }),
  'marketplace.createTransfer': async (w) => ({ body: { ...examples.createTransfer(await w.fundedRecipientId()), account_id: account(w) } }),
  'marketplace.reverseTransfer': async (w) => ({ params: { transfer_id: await w.transferId() }, body: { ...examples.reverseTransfer(), account_id: account(w), amount: { currency: 'BRL', value: 1 } } }),
  'banking.createEntity': async (w) => ({ body: { ...examples.createIndividualEntity(), account_id: account(w), merchant_entity_id: w.unique('ent') }, headers: { 'x-idempotency-key': crypto.randomUUID() } }),
  'banking.createOnboarding': async (w) => ({ params: { entity_id: await w.entityId() }, body: { ...examples.createOnboarding(), account_id: account(w) }, headers: { 'x-idempotency-key': crypto.randomUUID() } }),
  'banking.getOnboarding': async (w) => {
    const o = await w.onboarding();
    return { params: { entity_id: o.entityId, onboarding_id: o.onboardingId } };
  },
  'banking.updateAccount': async (w) => ({ params: { account_id: await w.bankingAccountId() }, body: { account_id: account(w), account_type: 'SAVINGS' } }),
  'webhooks.list': async (w) => ({ query: { account_id: account(w) } }),
  'webhooks.create': async (w) => ({ body: { ...examples.createWebhook(`http://127.0.0.1:9/${w.unique('hook')}`), account_id: account(w), name: w.unique('hook') } }),
  'webhooks.get': async (w) => ({ params: { webhook_id: await w.webhookId() }, query: { account_id: account(w) } }),
  'webhooks.update': async (w) => ({ params: { webhook_id: await w.webhookId() }, body: { account_id: account(w), state: 'INACTIVE' } }),
  'webhooks.delete': async (w) => ({ params: { webhook_id: await w.webhookId() }, query: { account_id: account(w) } }),
  // The control API (sandbox profile only).
  'sandbox.createMerchant': async () => ({ body: { name: 'conformance-extra' } }),
  'sandbox.rotateSecretKey': async (w) => {
    // A rotation ends the old key: run it on a throwaway tenant (as reset's), never on the suite's own.
    const m = await w.client.sandbox.createMerchant({ body: { name: 'conformance-rotate' } });
    w.resetIdentity = { publicKey: m.public_api_key, secretKey: m.private_secret_key, accountId: m.account_ids[0] as string };
    return {};
  },
  'sandbox.getClock': async () => ({}),
  'sandbox.advanceClock': async () => ({ body: { seconds: 1 } }),
  'sandbox.reset': async (w) => {
    // Reset wipes the caller's data: run it on a throwaway tenant, never on the suite's own.
    const m = await w.client.sandbox.createMerchant({ body: { name: 'conformance-reset' } });
    w.resetIdentity = { publicKey: m.public_api_key, secretKey: m.private_secret_key, accountId: m.account_ids[0] as string };
    return {};
  },
  'sandbox.listEvents': async () => ({ query: { limit: 5 } }),
  'sandbox.listRequests': async () => ({ query: { limit: 5 } }),
  'sandbox.exportSnapshot': async () => ({}),
  'sandbox.importSnapshot': async (w) => {
    // An import needs a merchant without data: a throwaway tenant (as reset's), importing its own empty snapshot.
    const m = await w.client.sandbox.createMerchant({ body: { name: 'conformance-import' } });
    w.resetIdentity = { publicKey: m.public_api_key, secretKey: m.private_secret_key, accountId: m.account_ids[0] as string };
    return { body: { ...(await w.clientFor(w.resetIdentity).sandbox.exportSnapshot()) } };
  },
  'sandbox.chargeback': async (w) => ({ params: { payment_id: (await w.capturedPayment()).paymentId }, body: { amount: 1 } }),
  'sandbox.disputeOutcome': async (w) => ({ params: { payment_id: (await w.chargeback()).paymentId }, body: { outcome: 'WON' } }),
  'sandbox.payerOutcome': async (w) => ({ params: { payment_id: await w.waitingPayment() }, body: { outcome: 'SUCCEEDED' } }),
  'sandbox.completeEnrollment': async (w) => {
    const session = await w.customerSession();
    const m = await w.client.paymentMethods.enrollInSession({ params: { customer_session: session }, body: { ...examples.enrollInSession(), account_id: w.me.accountId } });
    return { params: { customer_session: session, payment_method_id: m.id }, body: { card: { number: '4111111111111111', expiration_month: 11, expiration_year: 2030, security_code: '123' } } };
  },
  'sandbox.scriptOutcomes': async (w) => ({ params: { vaulted_token: await w.vaultedToken() }, body: { sequence: ['SUCCEEDED'] } }),
  'sandbox.onboardingOutcome': async (w) => ({ params: { onboarding_id: (await w.onboarding()).onboardingId }, body: { status: 'UNDER_REVIEW' } }),
  'sandbox.getRecipientBalance': async (w) => ({ params: { recipient_id: await w.fundedRecipientId(1) } }),
  'sandbox.fundRecipientBalance': async (w) => ({ params: { recipient_id: await w.recipientId() }, body: { amount: { currency: 'BRL', value: 1 } } }),
  'sandbox.listWebhookDeliveries': async () => ({ query: { limit: 5 } }),
  // A rule for a URL no webhook has: it never touches the deliveries other cases wait for.
  'sandbox.createWebhookChaos': async (w) => ({ body: { match: { url: `http://127.0.0.1:9/${w.unique('chaos')}` }, effect: { type: 'duplicate' } } }),
  'sandbox.listWebhookChaos': async () => ({}),
  'sandbox.deleteWebhookChaos': async (w) => {
    const rule = await w.client.sandbox.createWebhookChaos({ body: { match: { url: `http://127.0.0.1:9/${w.unique('chaos')}` }, effect: { type: 'delay', seconds: 1 } } });
    return { params: { chaos_id: rule.id } };
  },
  'sandbox.clearWebhookChaos': async () => ({}),
  'sandbox.redeliverWebhook': async (w) => {
    await w.client.webhooks.create({ body: { ...examples.createWebhook(`http://127.0.0.1:9/${w.unique('redeliver')}`), account_id: w.me.accountId, name: w.unique('redeliver'), payment_triggers: ['PURCHASE'] } });
    await w.payment();
    // Bounded by time, as the webhook suite's receiver is: a loaded target may take many seconds to attempt.
    const deadline = Date.now() + 45_000;
    do {
      const [d] = await w.client.sandbox.listWebhookDeliveries({ query: { event_type: 'payment.purchase', limit: 1 } });
      if (d && d.attempts.length > 0) return { params: { delivery_id: d.id } };
      await new Promise((r) => setTimeout(r, 20));
    } while (Date.now() < deadline);
    throw new Error('no webhook delivery appeared to redeliver in 45 s');
  },
  // A fault rule on the suite's own tenant must never fire: it matches a header no request sends.
  // Creating one clears the others first, so repeated runs stay under the per-merchant cap.
  'sandbox.createFaultRule': async (w) => {
    await w.client.sandbox.clearFaultRules();
    return { body: INERT_FAULT_RULE };
  },
  'sandbox.listFaultRules': async () => ({}),
  'sandbox.deleteFaultRule': async (w) => ({ params: { fault_id: (await w.client.sandbox.createFaultRule({ body: INERT_FAULT_RULE })).id } }),
  'sandbox.clearFaultRules': async () => ({}),
  'sandbox.getInspectorOverview': async () => ({ query: { limit: 5 } }),
} satisfies Record<RouteKey, Prepare>;

/**
 * Optional fields a maximal request leaves out because a rule on the state the route's valid
 * request acts on refuses them, which no schema can show (cross-field rules inside the body are
 * derived: harness/maximal.ts). Each cites the rule; docs/conformance.md lists them.
 */
export const MAXIMAL_LEAVES_OUT: Record<string, { field: string; why: string }[]> = {
  // The valid request cancels an authorization: spec §3, "Payment, not captured | cancel-or-refund | cancelled";
  // an amount makes a partial refund of a captured payment only ("partial if amount is given").
  'payments.cancelOrRefund': [{ field: 'amount', why: 'spec §3: an uncaptured payment is cancelled in full, an amount applies to a captured one' }],
};

const DOMAIN_OF_SANDBOX = 'sandbox';

function withPrepare(routes: Omit<OperationCase, 'prepare'>[]): OperationCase[] {
  return routes.map((r) => {
    // The keys come from listRoutes over the same routers RouteKey is derived from.
    const prepare: Prepare = PREPARE[r.key as RouteKey];
    return { ...r, prepare };
  });
}

/** The routes of the `/sandbox` control API, with how to call them validly. */
export function controlApiCases(): OperationCase[] {
  return withPrepare(listRoutes(sandboxContract).map((r) => ({ ...r, key: `sandbox.${r.key}`, domainKey: DOMAIN_OF_SANDBOX, name: r.key })));
}

/** Every route of the contract (and of the control API), with how to call it validly. */
export function operationCases(includeSandbox: boolean): OperationCase[] {
  const v1 = withPrepare(listRoutes(contract).map((r) => ({ ...r, domainKey: r.key.split('.')[0] as string, name: r.key.split('.')[1] as string })));
  return [...v1, ...(includeSandbox ? controlApiCases() : [])];
}

/** The route's body schema, when it has one to derive invalid bodies from. */
export function bodySchemaOf(c: Pick<ListedRoute, 'route'>): ZodTypeAny | undefined {
  const body = (c.route as { body?: unknown }).body as ZodTypeAny | undefined;
  return body && typeof body.safeParse === 'function' ? body : undefined;
}

/** The route's documented success statuses (2xx). */
export const successStatuses = (route: { responses: unknown }): number[] => Object.keys(route.responses as object).map(Number).filter((s) => s >= 200 && s < 300);

/** Whether the route has path parameters (ids that may name nothing). */
export const hasPathParams = (c: Pick<ListedRoute, 'route'>) => /\/:[a-z_]+/.test(c.route.path);

/** A key that is not a UUID. */
export const NON_UUID_KEY = 'conformance-key-not-a-uuid';

/** Whether the route's idempotency key must be a UUID (spec §5: 4.4 and 4.8), read from its header schema. */
export function needsUuidKey(c: Pick<ListedRoute, 'route'>): boolean {
  const headers = (c.route as { headers?: ZodTypeAny }).headers;
  if (!headers) return false;
  const { core } = unwrapSchema(headers);
  const key = (core as { shape?: Record<string, ZodTypeAny> }).shape?.[IDEMPOTENCY_HEADER];
  return key !== undefined && key.safeParse(crypto.randomUUID()).success && !key.safeParse(NON_UUID_KEY).success;
}

/**
 * The per-route checks the suite runs for a case. The suite registers its tests from it, and the
 * runner counts with it the checks of routes a run leaves out.
 */
export function checksOf(c: Pick<OperationCase, 'key' | 'route'>): CheckName[] {
  return [
    'positive_data_acceptance',
    ...(bodySchemaOf(c) ? (['negative_data_rejection', 'maximal_data_acceptance'] as const) : []),
    'missing_required_header',
    // Creating a sandbox merchant is the one call that takes no keys.
    ...(c.key === 'sandbox.createMerchant' ? [] : (['ignored_auth'] as const)),
    'unsupported_method',
    ...(hasPathParams(c) ? (['unknown_resource'] as const) : []),
    ...(needsUuidKey(c) ? (['idempotency_key_format'] as const) : []),
    ...RESPONSE_CHECKS,
    'latency_budget',
  ];
}
