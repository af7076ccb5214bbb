import { createClient, type SwitchyardClient } from '@switchyard/client';
import { contract, IDEMPOTENCY_HEADER, listRoutes, PUBLIC_KEY_HEADER, SECRET_KEY_HEADER, type Payment, type SandboxMerchant } from '@switchyard/contract';
import { fixtures as examples, MINIMAL_PDF_BASE64 } from '@switchyard/contract/fixtures';
import type { KnownIds } from './maximal.js';
import type { AppRoute } from '@ts-rest/core';
import { controlApiExclusion, type ConformanceConfig, type IdFixture } from '../config.js';
import { Recorder, type Exchange } from './recorder.js';
import { Unavailable } from './unavailable.js';

/** The contract's retrieve routes (a GET of one resource by its id), to read a resource back. */
const RETRIEVE_ROUTES = listRoutes(contract)
  .map((r) => ({ method: r.route.method, path: r.route.path, query: (r.route as { query?: unknown }).query !== undefined && (r.route as { query?: unknown }).query !== null }))
  .filter((r) => r.method === 'GET' && /:[a-z_]+$/.test(r.path));

export { Unavailable } from './unavailable.js';

export interface Identity {
  publicKey: string;
  secretKey: string;
  accountId: string;
}

/** The sandbox's test cards (docs/sandbox.md, "Test cards"): a staging whose cards differ names its own in the fixtures file. */
export const DEFAULT_TEST_CARDS = { approved: '4111111111111111', declined: '4000000000000002' } as const;

/**
 * Everything the suite knows about the server under test: who it is, what it recorded, and how
 * to bring the states a check needs into being. Through the public API wherever it can (payments
 * with test cards, captures, refunds, customers, sessions), on staging as on the sandbox; through
 * the `/sandbox` control API (sandbox profile) or a fixture id (staging) for the rest: a
 * chargeback, a scripted decline, a funded balance, a settled onboarding. A fixture given always
 * wins over a state the suite would make.
 */
export class World {
  readonly recorder: Recorder;
  readonly byOperation = new Map<string, Exchange[]>();
  client!: SwitchyardClient;
  me!: Identity;
  /** A second tenant (sandbox only): its keys must not reach our resources. */
  other: Identity | undefined;
  /** The throwaway tenant of the checks that must not act on the suite's own: reset wipes it, a snapshot import fills it, a rotation ends its secret key. */
  resetIdentity: Identity | undefined;
  private counter = 0;

  constructor(readonly config: ConformanceConfig) {
    this.recorder = new Recorder(config);
  }

  get isSandbox(): boolean {
    return this.config.profile === 'sandbox';
  }

  /** The API through the server under test; the control API where it answers (the same server unless --control-url). */
  clientFor(identity: Identity): SwitchyardClient {
    const options = { publicApiKey: identity.publicKey, privateSecretKey: identity.secretKey, maxRetries: 0, fetch: this.recorder.fetch };
    const api = createClient({ ...options, baseUrl: this.config.baseUrl });
    return this.config.controlUrl === this.config.baseUrl ? api : { ...api, sandbox: createClient({ ...options, baseUrl: this.config.controlUrl }).sandbox };
  }

  /** Whether the control API routes are checked too (only when they are served by the server under test). */
  get checksControlApi(): boolean {
    return controlApiExclusion(this.config) === undefined;
  }

  async setup(): Promise<void> {
    if (this.isSandbox) {
      const anonymous = createClient({ baseUrl: this.config.controlUrl, publicApiKey: 'none', privateSecretKey: 'none', maxRetries: 0, fetch: this.recorder.fetch });
      const tenant = async (): Promise<Identity> => {
        const m: SandboxMerchant = await anonymous.sandbox.createMerchant({ body: { name: 'conformance' } });
        return { publicKey: m.public_api_key, secretKey: m.private_secret_key, accountId: m.account_ids[0] as string };
      };
      try {
        this.me = await tenant();
      } catch (error) {
        const status = (error as { status?: number }).status;
        const outcome = status === undefined ? `failed: ${(error as Error).message}` : `answered ${status}`;
        throw new Error(`the sandbox profile makes its tenants with POST ${this.config.controlUrl}/sandbox/merchants, which ${outcome} (a server without the /sandbox control API needs --profile staging)`);
      }
      this.other = await tenant();
    } else {
      // configFromEnv refused a staging run without keys and an account.
      this.me = { publicKey: this.config.publicKey, secretKey: this.config.secretKey, accountId: this.config.accountId as string };
    }
    this.client = this.clientFor(this.me);
  }

  unique(prefix: string): string {
    this.counter += 1;
    return `${prefix}-${this.config.seed}-${Date.now().toString(36)}-${this.counter}`;
  }

  /** Runs `fn`, attributing every exchange it makes to `operationId`. */
  async record<T>(operationId: string, fn: () => Promise<T>): Promise<{ value: T; exchanges: Exchange[] }> {
    const mark = this.recorder.exchanges.length;
    const value = await fn();
    const exchanges = this.recorder.since(mark);
    this.byOperation.set(operationId, [...(this.byOperation.get(operationId) ?? []), ...exchanges]);
    return { value, exchanges };
  }

  /** A raw request (for what a well-behaved client never sends): no auth, wrong keys, wrong methods. */
  async send(
    route: { method: string; path: string },
    options: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown; rawBody?: string; headers?: Record<string, string>; auth?: Identity | null; method?: string; baseUrl?: string },
  ): Promise<Exchange> {
    const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? 'missing'));
    const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, String(v)]))}` : '';
    const auth = options.auth === undefined ? this.me : options.auth;
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const headers: Record<string, string> = {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(auth ? { [PUBLIC_KEY_HEADER]: auth.publicKey, [SECRET_KEY_HEADER]: auth.secretKey } : {}),
      ...options.headers,
    };
    const { exchange } = await this.recorder.exchange(`${options.baseUrl ?? this.config.baseUrl}${path}${query}`, { method: options.method ?? route.method, headers, body });
    return exchange;
  }

  /** Attributes exchanges made outside `record` to `operationId`, for its response checks. */
  attribute(operationId: string, exchanges: Exchange[]): void {
    this.byOperation.set(operationId, [...(this.byOperation.get(operationId) ?? []), ...exchanges]);
  }

  /**
   * What a request could have changed, to compare before and after requests that must change
   * nothing: the resource the route's path names, read back through the contract's retrieve
   * route whose path starts the route's own (`GET /v1/payments/:payment_id` for a refund), and,
   * on the sandbox, the merchant's event log.
   */
  async snapshot(route: { method: string; path: string }, args: { params?: Record<string, string> }): Promise<string> {
    const parts: unknown[] = [];
    const shape = (p: string) => p.replace(/:[a-z_]+/g, ':');
    const retrieve = route.method === 'GET' ? undefined : RETRIEVE_ROUTES.find((r) => shape(route.path).startsWith(`${shape(r.path)}/`) || shape(route.path) === shape(r.path));
    if (retrieve) {
      const values = Object.values(args.params ?? {});
      const names = [...retrieve.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string);
      const params = Object.fromEntries(names.map((n, i) => [n, values[i] ?? 'missing']));
      const e = await this.send(retrieve, { params, query: retrieve.query ? { account_id: this.me.accountId } : undefined });
      parts.push(e.status, e.responseBody);
    }
    if (this.isSandbox) {
      const e = await this.send({ method: 'GET', path: '/sandbox/events' }, { query: { limit: 1000 }, baseUrl: this.config.controlUrl });
      parts.push(Array.isArray(e.responseBody) ? e.responseBody.length : e.responseBody);
    }
    return JSON.stringify(parts);
  }

  fixture(name: IdFixture): string {
    const id = this.config.fixtures[name];
    if (!id) throw new Unavailable(`needs the fixture "${name}" (pass --fixtures with it) on a server without the /sandbox control API`);
    return id;
  }

  /** The fixture when one is given; else a state made through the public API, on either profile. */
  private async fixtureOr(name: IdFixture, make: () => Promise<string>): Promise<string> {
    return this.config.fixtures[name] ?? make();
  }

  /** Whether the fixtures file names any state by its id. */
  get usesIdFixtures(): boolean {
    return Object.keys(this.config.fixtures).some((k) => k !== 'test_cards');
  }

  /** The test cards: the sandbox's, or the fixtures file's. */
  get cards(): { approved: string; declined: string } {
    return { ...DEFAULT_TEST_CARDS, ...this.config.fixtures.test_cards };
  }

  private requireSandbox(what: string): void {
    if (!this.isSandbox) throw new Unavailable(`${what} needs the /sandbox control API`);
  }

  // States, created fresh on the sandbox, taken from fixtures elsewhere.

  async customerId(): Promise<string> {
    return this.fixtureOr('customer_id', async () => (await this.client.customers.create({ body: { merchant_customer_id: this.unique('conf-cust') } })).id);
  }

  async customerSession(): Promise<string> {
    return this.fixtureOr('customer_session', async () => {
      const s = await this.client.customers.createSession({ body: { account_id: this.me.accountId, country: 'AR', customer_id: await this.customerId() } });
      return s.customer_session;
    });
  }

  /** A checkout session of its own for each payment (a fixture's session is shared by every payment made with it). */
  async checkoutSession(value = 99.99): Promise<string> {
    return this.fixtureOr('checkout_session', async () => {
      const s = await this.client.checkout.createSession({ body: { ...examples.createCheckoutSession(), account_id: this.me.accountId, amount: { currency: 'ARS', value } } });
      return s.checkout_session;
    });
  }

  paymentBody(session: string, options: { card?: string; value?: number; capture?: boolean } = {}) {
    const body = { ...examples.createPayment(session, options.card ?? this.cards.approved), account_id: this.me.accountId, merchant_order_id: this.unique('order'), amount: { currency: 'ARS', value: options.value ?? 99.99 } };
    const card = body.payment_method.detail?.card;
    if (card && options.capture !== undefined) card.capture = options.capture;
    return body;
  }

  /** A new card payment with a test card, through the public API (captured unless `capture: false`). */
  async payment(options: { card?: string; value?: number; capture?: boolean } = {}): Promise<Payment> {
    return this.client.payments.create({ body: this.paymentBody(await this.checkoutSession(options.value ?? 99.99), options) });
  }

  /** A PIX payment waiting for its payer (sandbox only: the control API plays the payer). */
  async waitingPayment(): Promise<string> {
    this.requireSandbox('a payment that waits for its payer');
    const p = await this.client.payments.create({
      body: { account_id: this.me.accountId, merchant_order_id: this.unique('pix'), description: 'Conformance PIX', country: 'BR', amount: { currency: 'BRL', value: 10 }, workflow: 'DIRECT', payment_method: { type: 'PIX' } },
    });
    return p.id;
  }

  async capturedPayment(): Promise<{ paymentId: string; transactionId: string }> {
    const { payment_id, captured_transaction_id } = this.config.fixtures;
    if (payment_id && captured_transaction_id) return { paymentId: payment_id, transactionId: captured_transaction_id };
    const p = await this.payment();
    return { paymentId: p.id, transactionId: p.transactions?.id as string };
  }

  async authorizedPayment(): Promise<{ paymentId: string; transactionId: string }> {
    const { authorized_payment_id, authorized_transaction_id } = this.config.fixtures;
    if (authorized_payment_id && authorized_transaction_id) return { paymentId: authorized_payment_id, transactionId: authorized_transaction_id };
    const p = await this.payment({ capture: false });
    return { paymentId: p.id, transactionId: p.transactions?.id as string };
  }

  async chargeback(): Promise<{ paymentId: string; transactionId: string }> {
    if (!this.isSandbox) return { paymentId: this.fixture('chargeback_payment_id'), transactionId: this.fixture('chargeback_transaction_id') };
    const p = await this.payment();
    const cb = await this.client.sandbox.chargeback({ params: { payment_id: p.id }, body: {} });
    return { paymentId: p.id, transactionId: cb.transactions?.id as string };
  }

  evidence() {
    return { account_id: this.me.accountId, evidence: [{ file_name: 'receipt.pdf', content_type: 'application/pdf' as const, content_category: 'RECEIPT' as const, content: MINIMAL_PDF_BASE64 }] };
  }

  async vaultedToken(): Promise<string> {
    return this.fixtureOr('vaulted_token', async () => {
      const body = examples.enrollDirect();
      const m = await this.client.paymentMethods.enrollDirect({ params: { customer_id: await this.customerId() }, body: { ...body, account_id: this.me.accountId, card_data: { ...body.card_data!, number: this.cards.approved } } });
      return m.vaulted_token;
    });
  }

  async subscription(): Promise<string> {
    return this.fixtureOr('subscription_id', async () => (await this.client.subscriptions.create({ body: { ...examples.createSubscription(await this.vaultedToken()), account_id: this.me.accountId } })).id);
  }

  /** A subscription whose latest payment declined (so a retry is allowed), and its token. */
  async declinedSubscription(): Promise<{ id: string; token: string }> {
    if (!this.isSandbox) return { id: this.fixture('declined_subscription_id'), token: this.fixture('vaulted_token') };
    const token = await this.vaultedToken();
    await this.client.sandbox.scriptOutcomes({ params: { vaulted_token: token }, body: { sequence: ['DECLINED'] } });
    const s = await this.client.subscriptions.create({ body: { ...examples.createSubscription(token), account_id: this.me.accountId } });
    return { id: s.id, token };
  }

  async recipientId(): Promise<string> {
    return this.fixtureOr('recipient_id', async () => (await this.client.marketplace.createRecipient({ body: { ...examples.createRecipient(), account_id: this.me.accountId, merchant_recipient_id: this.unique('rcp') } })).id);
  }

  /**
   * A recipient a transfer of `value` BRL can be paid to: onboarded with the sandbox's provider
   * (the example recipient) and funded through the control route. Against the real service, the
   * configured recipient, which must be onboarded and funded there.
   */
  async fundedRecipientId(value = 100): Promise<string> {
    if (!this.isSandbox) return this.fixture('recipient_id');
    const id = await this.recipientId();
    await this.client.sandbox.fundRecipientBalance({ params: { recipient_id: id }, body: { amount: { currency: 'BRL', value } } });
    return id;
  }

  async transferId(value = 100): Promise<string> {
    if (!this.isSandbox) return this.fixture('transfer_id');
    const t = await this.client.marketplace.createTransfer({ body: { ...examples.createTransfer(await this.fundedRecipientId(value)), account_id: this.me.accountId, amount: { currency: 'BRL', value } } });
    return t.id;
  }

  async entityId(): Promise<string> {
    return this.fixtureOr('entity_id', async () => {
      const e = await this.client.banking.createEntity({ body: { ...examples.createIndividualEntity(), account_id: this.me.accountId, merchant_entity_id: this.unique('ent') } });
      return e.id;
    });
  }

  async onboarding(): Promise<{ entityId: string; onboardingId: string }> {
    const { entity_id, onboarding_id } = this.config.fixtures;
    if (entity_id && onboarding_id) return { entityId: entity_id, onboardingId: onboarding_id };
    const entityId = await this.entityId();
    const o = await this.client.banking.createOnboarding({ params: { entity_id: entityId }, body: { ...examples.createOnboarding(), account_id: this.me.accountId } });
    return { entityId, onboardingId: o.id };
  }

  async bankingAccountId(): Promise<string> {
    if (!this.isSandbox) return this.fixture('banking_account_id');
    const { onboardingId } = await this.onboarding();
    const settled = await this.client.sandbox.onboardingOutcome({ params: { onboarding_id: onboardingId }, body: { status: 'SUCCEEDED' } });
    return settled.account?.id as string;
  }

  /**
   * Ids for the optional fields of a maximal request that name a resource (a sampled id would name
   * nothing): the run's account, and a customer of its own. Fields not listed get sampled values.
   */
  async knownIds(): Promise<KnownIds> {
    const orNone = (error: unknown) => (error instanceof Unavailable ? undefined : Promise.reject(error));
    const customer = await this.customerId().catch(orNone);
    // One webhook the maximal requests may name (a chaos rule's match.webhook_id), made once.
    this.maximalWebhook ??= this.webhookId();
    const webhook = await this.maximalWebhook.catch(orNone);
    return {
      account_id: this.me.accountId,
      ...(customer ? { customer_id: customer, 'customer_payer.id': customer } : {}),
      ...(webhook ? { webhook_id: webhook } : {}),
    };
  }

  private maximalWebhook: Promise<string> | undefined;

  async webhookId(): Promise<string> {
    return this.fixtureOr('webhook_id', async () => {
      const w = await this.client.webhooks.create({ body: { ...examples.createWebhook(`http://127.0.0.1:9/${this.unique('hook')}`), account_id: this.me.accountId, name: this.unique('hook') } });
      return w.id;
    });
  }
}

export type RouteRef = Pick<AppRoute, 'method' | 'path'>;
export const isIdempotencyHeader = (name: string) => name.toLowerCase() === IDEMPOTENCY_HEADER;
