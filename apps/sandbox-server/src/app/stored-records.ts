import {
  Amount,
  BankingAccount,
  BankingEntity,
  BankingOnboarding,
  CheckoutSession,
  CreateFaultRuleBody,
  CreateSubscriptionBody,
  CreateWebhookBody,
  CreateWebhookChaosBody,
  Currency,
  Customer,
  CustomerSession,
  DirectEnrolledPaymentMethod,
  FaultRule,
  hasAtMostFourDecimals,
  MAX_AMOUNT_VALUE,
  MAX_FAULT_RULES,
  MAX_WEBHOOK_CHAOS_RULES,
  MetadataItem,
  ONBOARDING_STATUSES,
  Payment,
  PAYMENT_LINK_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PaymentLink,
  Recipient,
  RecipientBalance,
  RetrievedPayment,
  SandboxEvent,
  SCRIPTED_OUTCOMES,
  SessionEnrolledPaymentMethod,
  SplitMarketplaceItem,
  Subscription,
  SUBSCRIPTION_STATUSES,
  Transfer,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  TRANSFER_STATUSES,
  VerifyPayment,
  Webhook,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_STATES,
  WebhookChaosRule,
  WebhookDelivery,
  WebhookSettings,
  describeIssues,
  fieldLabel,
  type PaymentMethodType,
} from '@switchyard/contract';
import { z, type ZodIssue, type ZodTypeAny } from 'zod';
import { presentBalance, type BalanceState } from '../domain/balances.js';
import type { TestOutcome } from '../domain/cards.js';
import { presentCustomer, type StoredCustomer } from '../domain/customer-view.js';
import type { IdempotencyRecord } from '../domain/idempotency.js';
import { MAX_UNITS } from '../domain/money.js';
import type { PaymentLinkState } from '../domain/payment-links.js';
import type { PaymentMethodState } from '../domain/payment-method-state.js';
import type { PaymentState, StoredCard, TransactionState } from '../domain/payment-state.js';
import { presentDirectMethod, presentSessionMethod } from '../domain/payment-method-view.js';
import { presentRetrievedPayment } from '../domain/payment-view.js';
import { presentRecipient, type StoredRecipient } from '../domain/recipient-view.js';
import { presentSubscription } from '../domain/subscription-view.js';
import type { SubscriptionState } from '../domain/subscriptions.js';
import { presentTransfer, type TransferState } from '../domain/transfers.js';
import type { DeliveryState } from '../domain/webhook-delivery.js';
import { MAX_ATTEMPTS, type WebhookState } from '../domain/webhook-routing.js';
import type { RecordKind } from '../store/types.js';
import type { CheckoutSessionState } from './checkout.js';
import { presentDelivery, presentWebhook } from './webhooks.js';

/**
 * What a stored record of each kind must be for the sandbox to have written it: the rules a
 * snapshot's records are checked against on import (app/snapshot-checks.ts), so that an imported
 * record is one the API could have written, and the domain, the clock and the hosted pages can act
 * on it as on their own.
 *
 * A record is checked in four steps:
 * - `stored`: its own fields, those the API does not answer as they are kept (amounts in units of
 *   0.0001, states, references); the views read them, so they are checked first;
 * - `answer`: the record as the API answers it, through the same view the routes use, against the
 *   contract's schema of that answer. Fields kept as they are answered are checked there, by the
 *   contract, and are not restated here;
 * - `invariants`: what holds between fields (a payment's totals are its transactions', refunds
 *   never pass what was captured);
 * - `references`: the records it names, which the snapshot must hold.
 *
 * The rules of a request field the sandbox keeps as it came (a subscription's frequency, a
 * webhook's URL, a rule's probability) are the request schema's own, taken from the contract.
 */

/** A broken rule of a record: the field, as a path in its data, and what is wrong. */
export interface Problem {
  path: (string | number)[];
  message: string;
}

/** A record another record names: by its id, or by its unique key (a vaulted token). */
export interface Reference {
  /** The naming field, as a path in the data. */
  path: (string | number)[];
  kind: RecordKind;
  id?: string;
  uniqueKey?: string;
}

/** The rules of one kind, for records of type `T` (once `stored` passed). */
export interface StoredRule<T> {
  stored: ZodTypeAny;
  /** The contract's schema of the record's answer, and the answer, made by the routes' view. */
  answer?(record: T): [ZodTypeAny, unknown];
  /** The id the API keeps the record under, when its data names it. */
  id?(record: T): string;
  /** The unique key the API keeps the record under (null: none). */
  uniqueKey(record: T, id: string): string | null;
  invariants?(record: T): Problem[];
  references?(record: T): Reference[];
  /** The most records of the kind a merchant holds. */
  max?: number;
}

// Primitives as the contract types them, taken from its exported schemas.
const DateTime = SandboxEvent.shape.created_at;
const Uuid = Customer.shape.id;

/**
 * Money as the sandbox keeps it: whole units of 0.0001 (every currency counts in those steps), at
 * most the largest amount the API accepts, so every sum of them is exact (domain/money.ts).
 */
const Units = z.number().int().min(0).max(MAX_UNITS);
/** A positive amount in units: what an amount the API accepts (`Amount`) is kept as. */
const PositiveUnits = Units.min(1);
/** A balance in major units, exact to 0.0001 and within the largest amount (a banking account's). */
const MajorUnits = z
  .number()
  .min(0)
  .max(MAX_AMOUNT_VALUE)
  .refine(hasAtMostFourDecimals, { message: 'must be a multiple of 0.0001 (at most 4 decimals)' });

/** The values of a domain union, listed once per value (a value added to or missing from the union fails typecheck). */
const oneOf = <T extends string>(values: Record<T, true>) => z.enum(Object.keys(values) as [T, ...T[]]);

const sum = (amounts: readonly number[]) => amounts.reduce((a, b) => a + b, 0);

/** A zod issue as a problem, worded as the API words a request's (the field named apart). */
export function problemOf(issue: ZodIssue, path: (string | number)[] = []): Problem {
  const [line = ''] = describeIssues([issue], 'body');
  return { path: [...path, ...issue.path], message: line.slice(fieldLabel('body', issue.path).length + 2) };
}

/** The problems of `value` against `schema`, at `path` (a request rule checked on a stored field). */
function against(schema: ZodTypeAny, value: unknown, path: (string | number)[]): Problem[] {
  const checked = schema.safeParse(value);
  return checked.success ? [] : checked.error.issues.map((issue) => problemOf(issue, path));
}

const when = (broken: boolean, path: (string | number)[], message: string): Problem[] => (broken ? [{ path, message }] : []);

const byId = (path: (string | number)[], kind: RecordKind, id: string | null | undefined): Reference[] => (id ? [{ path, kind, id }] : []);

const ownId = (record: { id: string }) => record.id;
const noKey = () => null;

/** A rule, its record type fixed for its functions. */
const rule = <T>(r: StoredRule<T>): StoredRule<T> => r;

// Payments.

const StoredTransaction = z.object({
  id: Uuid,
  type: z.enum(TRANSACTION_TYPES),
  status: z.enum(TRANSACTION_STATUSES),
  amount_units: Units,
});

const StoredCardSchema = z.object({
  three_d_secure: oneOf<StoredCard['three_d_secure']>({ none: true, frictionless: true, challenge: true, challenge_passed: true }),
});

const StoredAlternative = z.object({
  flow: z.string(),
  detail: z.string(),
  category: z.string(),
  refund: z.string(),
  expires_at: DateTime.nullable(),
  page_code: z.string().min(1).nullable(),
  wallet: z.object({ has_token: z.boolean(), lfd: z.string().nullable(), verify: z.boolean() }).nullable(),
});

const StoredPayment = z.object({
  id: Uuid,
  status: z.enum(PAYMENT_STATUSES),
  currency: Currency,
  amount_units: Units,
  authorized_units: Units,
  captured_units: Units,
  refunded_units: Units,
  charged_back_units: Units,
  checkout_session: z.string().nullable(),
  subscription_id: z.string().nullable(),
  payment_method: z.object({
    type: z.string(),
    vaulted_token: z.string().nullable(),
    token: z.string().nullable(),
    card: StoredCardSchema.nullable(),
    alternative: StoredAlternative.nullable().optional(),
  }),
  metadata: z.array(MetadataItem),
  split_marketplace: z.array(SplitMarketplaceItem),
  transactions: z.array(StoredTransaction),
  refund_in_progress: z.object({ transaction_id: z.string(), amount_units: PositiveUnits }).nullable(),
  dispute: z
    .object({ chargeback_transaction_id: z.string(), previous_status: z.enum(PAYMENT_STATUSES), previous_sub_status: z.string(), evidence_count: z.number().int().min(0) })
    .nullable(),
  payment_link: z.object({ id: z.string(), code: z.string(), one_time_use: z.boolean().optional() }).nullable().optional(),
});

/** What the transactions of `types` that ended `status` add up to. */
const totalOf = (p: PaymentState, types: readonly TransactionState['type'][], status: TransactionState['status']) =>
  sum(p.transactions.filter((t) => types.includes(t.type) && t.status === status).map((t) => t.amount_units));

/**
 * A payment's totals are its transactions' (a captured charge adds to `captured_units`, a refund
 * to `refunded_units` once it succeeded, a lost chargeback to `charged_back_units`), and each is
 * bounded by the one before it: captured by authorized by the amount, refunded and charged back
 * together by captured. The status agrees with them and with the open refund or dispute.
 */
function paymentInvariants(p: PaymentState): Problem[] {
  const byTxId = new Map(p.transactions.map((t) => [t.id, t]));
  const open = p.captured_units - p.refunded_units - p.charged_back_units;
  const refund = p.refund_in_progress ? byTxId.get(p.refund_in_progress.transaction_id) : undefined;
  const chargeback = p.dispute ? byTxId.get(p.dispute.chargeback_transaction_id) : undefined;
  const alternative = p.payment_method.alternative;
  const profile = alternative ? PAYMENT_METHODS[p.payment_method.type as PaymentMethodType] : undefined;
  return [
    ...when(byTxId.size !== p.transactions.length, ['transactions'], 'names one transaction id twice'),
    ...when(p.authorized_units > p.amount_units, ['authorized_units'], 'is more than the amount'),
    ...when(p.captured_units > p.authorized_units, ['captured_units'], 'is more than was authorized'),
    ...when(open < 0, ['refunded_units'], 'refunded and charged back together pass what was captured'),
    ...when(p.captured_units !== totalOf(p, ['PURCHASE', 'CAPTURE'], 'SUCCEEDED'), ['captured_units'], 'is not the sum of the succeeded purchases and captures'),
    ...when(p.refunded_units !== totalOf(p, ['REFUND'], 'SUCCEEDED'), ['refunded_units'], 'is not the sum of the succeeded refunds'),
    ...when(p.charged_back_units !== totalOf(p, ['CHARGEBACK'], 'LOST'), ['charged_back_units'], 'is not the sum of the lost chargebacks'),
    ...when(
      p.refund_in_progress !== null && (refund?.type !== 'REFUND' || refund.status !== 'PENDING' || refund.amount_units !== p.refund_in_progress.amount_units || refund.amount_units > open),
      ['refund_in_progress'],
      'names no pending refund of the payment within what is left to refund',
    ),
    ...when(p.dispute !== null && chargeback?.type !== 'CHARGEBACK', ['dispute', 'chargeback_transaction_id'], 'names no chargeback of the payment'),
    ...when((p.status === 'IN_DISPUTE') !== (p.dispute !== null), ['status'], 'is IN_DISPUTE exactly while a dispute is open'),
    ...when(p.status === 'REFUNDED' && (p.captured_units === 0 || p.refunded_units !== p.captured_units), ['status'], 'is REFUNDED only once everything captured was refunded'),
    ...when(p.status === 'CHARGEBACK' && (p.captured_units === 0 || open !== 0), ['status'], 'is CHARGEBACK only once nothing captured is left'),
    ...when(
      alternative !== null && alternative !== undefined && (profile === undefined || profile.flow !== alternative.flow || profile.detail !== alternative.detail || profile.category !== alternative.category || profile.refund !== alternative.refund),
      ['payment_method', 'alternative'],
      `is not how ${p.payment_method.type} pays`,
    ),
  ];
}

const payment = rule<PaymentState>({
  stored: StoredPayment,
  // Every transaction is in `transactions`: the history (the latest one again) would check it twice.
  answer: (p) => [RetrievedPayment, presentRetrievedPayment(p, { history: false, rawResponse: true })],
  id: ownId,
  uniqueKey: noKey,
  invariants: paymentInvariants,
  references: (p) => [
    ...byId(['checkout_session'], 'checkout_session', p.checkout_session),
    ...byId(['subscription_id'], 'subscription', p.subscription_id),
    ...byId(['payment_link', 'id'], 'payment_link', p.payment_link?.id),
    ...byId(['payment_method', 'alternative', 'page_code'], 'payer_page', p.payment_method.alternative?.page_code),
    ...(p.payment_method.vaulted_token ? [{ path: ['payment_method', 'vaulted_token'], kind: 'payment_method' as const, uniqueKey: p.payment_method.vaulted_token }] : []),
  ],
});

// Checkout: sessions, payment links and payer pages.

const checkoutSession = rule<CheckoutSessionState>({
  stored: z.object({ resource: CheckoutSession, account_id: z.string(), expires_at: DateTime, payment_id: z.string().nullable() }),
  id: (s) => s.resource.checkout_session,
  uniqueKey: (s) => s.resource.checkout_session,
  // A session's amount is the request's (`Amount`), which its payment is checked against.
  invariants: (s) => (s.resource.amount === null ? [] : against(Amount, s.resource.amount, ['resource', 'amount'])),
  references: (s) => [...byId(['resource', 'customer_id'], 'customer', s.resource.customer_id), ...byId(['payment_id'], 'payment', s.payment_id)],
});

const paymentLink = rule<PaymentLinkState>({
  stored: PaymentLink.extend({
    status: z.enum(PAYMENT_LINK_STATUSES),
    payments_number: z.number().int().min(0),
    vault_on_success: z.boolean().optional(),
    last_payment_id: z.string().nullable().optional(),
    last_payment_status: Payment.pick({ status: true, sub_status: true }).nullable().optional(),
  }),
  id: ownId,
  uniqueKey: (l) => l.code,
  // The link's amount is the request's (`Amount`): each payment of the link is made for it.
  invariants: (l) => against(Amount, l.amount, ['amount']),
  references: (l) => byId(['last_payment_id'], 'payment', l.last_payment_id),
});

const payerPage = rule<{ payment_id: string }>({
  stored: z.object({ payment_id: z.string() }),
  uniqueKey: (_page, id) => id,
  references: (page) => byId(['payment_id'], 'payment', page.payment_id),
});

// Customers and their payment methods.

const customer = rule<StoredCustomer>({
  stored: Customer.pick({ id: true, merchant_customer_id: true }),
  answer: (c) => [Customer, presentCustomer(c)],
  id: ownId,
  uniqueKey: (c) => c.merchant_customer_id,
});

const customerSession = rule<z.infer<typeof CustomerSession>>({
  stored: CustomerSession,
  id: (s) => s.customer_session,
  uniqueKey: noKey,
  references: (s) => byId(['customer_id'], 'customer', s.customer_id),
});

const StoredTestOutcome = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('approved'), threeDSecure: oneOf<Extract<TestOutcome, { kind: 'approved' }>['threeDSecure']>({ none: true, frictionless: true }) }),
  z.object({ kind: z.literal('declined'), code: z.string(), message: z.string() }),
  z.object({ kind: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({ kind: z.literal('challenge') }),
]);

const paymentMethod = rule<PaymentMethodState>({
  stored: z.object({
    id: Uuid,
    flow: oneOf<PaymentMethodState['flow']>({ session: true, direct: true }),
    customer_id: z.string(),
    customer_session: z.string().nullable(),
    vaulted_token: z.string().min(1).nullable(),
    card: StoredCardSchema.extend({ expiration_year: z.number().int().min(0) }).nullable(),
    card_outcome: StoredTestOutcome.nullable(),
    scripted_outcomes: z.array(z.enum(SCRIPTED_OUTCOMES)),
    verify: z.object({ vault_on_success: z.boolean(), currency: Currency.nullable(), payment: VerifyPayment.nullable().optional() }),
  }),
  answer: (m) => (m.flow === 'session' ? [SessionEnrolledPaymentMethod, presentSessionMethod(m, undefined)] : [DirectEnrolledPaymentMethod, presentDirectMethod(m)]),
  id: ownId,
  uniqueKey: (m) => m.vaulted_token,
  references: (m) => [...byId(['customer_id'], 'customer', m.customer_id), ...byId(['customer_session'], 'customer_session', m.customer_session)],
});

// Subscriptions.

/** The request's own rules of what a subscription keeps as it came. */
const SubscriptionRequest = CreateSubscriptionBody.innerType().shape;
const Frequency = SubscriptionRequest.frequency.unwrap().extend({ value: SubscriptionRequest.frequency.unwrap().shape.value.removeDefault() });
const Retries = z.object({ retry_on_decline: z.boolean(), amount: SubscriptionRequest.retries.unwrap().shape.amount.unwrap() });

const StoredCycle = z.object({
  cycle: z.number().int().min(1),
  payment_ids: z.array(z.string()).min(1),
  status: oneOf<NonNullable<SubscriptionState['latest']>['status']>({ SUCCEEDED: true, DECLINED: true, ERROR: true, PENDING: true }),
  manual_retries: z.array(z.object({ payment_id: z.string(), status: z.string() })),
  smart_retries_left: z.number().int().min(0),
  smart_retry_stopped: z.boolean(),
  next_smart_retry_at: DateTime.nullable(),
});

const subscription = rule<SubscriptionState>({
  stored: z.object({
    id: Uuid,
    status: z.enum(SUBSCRIPTION_STATUSES),
    currency: Currency,
    amount_units: PositiveUnits,
    // Each cycle moves the schedule forward by the frequency: a value of 0 would bill without end.
    frequency: Frequency,
    billing_total: z.number().int().min(1).nullable(),
    billing_current: z.number().int().min(0),
    next_at: DateTime.nullable(),
    customer_id: z.string().nullable(),
    payment_method: z.object({ type: z.string(), vaulted_token: z.string().min(1) }),
    availability: z.object({ start_at: DateTime, finish_at: DateTime.nullable() }),
    retries: Retries,
    trial: z.object({ billing_cycles: z.number().int().min(1), amount_units: Units.nullable() }).nullable(),
    latest: StoredCycle.nullable(),
  }),
  answer: (s) => [Subscription, presentSubscription(s)],
  id: ownId,
  uniqueKey: noKey,
  invariants: (s) => [
    ...when(s.billing_total !== null && s.billing_current > s.billing_total, ['billing_current'], 'is past billing_total'),
    ...when(s.next_at !== null && (s.status === 'COMPLETED' || s.status === 'CANCELED'), ['next_at'], 'a completed or canceled subscription has no next_at'),
    ...when(s.latest !== null && s.latest.smart_retries_left > s.retries.amount, ['latest', 'smart_retries_left'], 'is more than retries.amount'),
  ],
  references: (s) => [
    ...byId(['customer_id'], 'customer', s.customer_id),
    { path: ['payment_method', 'vaulted_token'], kind: 'payment_method', uniqueKey: s.payment_method.vaulted_token },
    ...(s.latest?.payment_ids.flatMap((id, i) => byId(['latest', 'payment_ids', i], 'payment', id)) ?? []),
    ...(s.latest?.manual_retries.flatMap((r, i) => byId(['latest', 'manual_retries', i, 'payment_id'], 'payment', r.payment_id)) ?? []),
  ],
});

// Marketplace.

const recipient = rule<StoredRecipient>({
  stored: Recipient.pick({ id: true }),
  answer: (r) => [Recipient, presentRecipient(r)],
  id: ownId,
  uniqueKey: noKey,
});

const transfer = rule<TransferState>({
  stored: z.object({
    id: z.string(),
    recipient_id: z.string(),
    currency: Currency,
    amount_units: PositiveUnits,
    reversed_units: Units,
    status: z.enum(TRANSFER_STATUSES),
    metadata: z.array(MetadataItem),
    transactions: z.array(z.object({ type: z.enum(TRANSACTION_TYPES), status: z.enum(TRANSACTION_STATUSES), amount_units: Units })),
  }),
  answer: (t) => [Transfer, presentTransfer(t)],
  id: ownId,
  uniqueKey: noKey,
  // A reversal gives back part of the transfer; the whole of it reversed is REVERSED.
  invariants: (t) => [
    ...when(t.reversed_units > t.amount_units, ['reversed_units'], 'is more than the amount'),
    ...when(
      t.reversed_units !== sum(t.transactions.filter((x) => x.type === 'SPLIT_TRANSFER_REVERSE' && x.status === 'SUCCEEDED').map((x) => x.amount_units)),
      ['reversed_units'],
      'is not the sum of the succeeded reversals',
    ),
    ...when((t.status === 'REVERSED') !== (t.reversed_units === t.amount_units), ['status'], 'is REVERSED exactly once the whole amount is reversed'),
  ],
  references: (t) => byId(['recipient_id'], 'recipient', t.recipient_id),
});

const balance = rule<BalanceState>({
  stored: z.object({ recipient_id: z.string(), account_id: z.string(), units: z.record(Currency, Units) }),
  answer: (b) => [RecipientBalance, presentBalance(b)],
  id: (b) => b.recipient_id,
  uniqueKey: noKey,
  references: (b) => byId(['recipient_id'], 'recipient', b.recipient_id),
});

// Banking: entities, onboardings and accounts are kept as answered.

const bankingEntity = rule<z.infer<typeof BankingEntity>>({
  stored: BankingEntity,
  id: ownId,
  uniqueKey: (e) => `${e.account_id}:${e.merchant_entity_id}`,
});

const bankingOnboarding = rule<z.infer<typeof BankingOnboarding>>({
  stored: BankingOnboarding.extend({ status: z.enum(ONBOARDING_STATUSES) }),
  id: ownId,
  uniqueKey: noKey,
  references: (o) => byId(['entity_id'], 'banking_entity', o.entity_id),
});

const bankingAccount = rule<z.infer<typeof BankingAccount>>({
  stored: BankingAccount.extend({ currency: Currency, balance: z.object({ available: MajorUnits, current: MajorUnits, pending: MajorUnits }) }),
  id: ownId,
  uniqueKey: noKey,
  references: (a) => [...byId(['entity_id'], 'banking_entity', a.entity_id), ...byId(['onboarding_id'], 'banking_onboarding', a.onboarding_id)],
});

// Webhooks, their deliveries and events.

const WebhookRequest = CreateWebhookBody.shape;
/** The settings as kept: a setting not sent is null. */
const storedSettings = Object.fromEntries(Object.entries(WebhookSettings.shape).map(([field, schema]) => [field, schema.unwrap().nullable()]));

const webhook = rule<WebhookState>({
  stored: z.object({ ...storedSettings, account_id: WebhookRequest.account_id, name: WebhookRequest.name, url: WebhookRequest.url, state: z.enum(WEBHOOK_STATES) }),
  answer: (w) => [Webhook, presentWebhook(w)],
  id: ownId,
  uniqueKey: noKey,
});

const delivery = rule<DeliveryState>({
  stored: z.object({
    id: z.string(),
    account_id: z.string(),
    url: WebhookRequest.url,
    state: z.enum(WEBHOOK_DELIVERY_STATES),
    envelope: z.record(z.string(), z.unknown()),
    attempts: z.array(z.object({ at: DateTime })).max(MAX_ATTEMPTS),
    next_attempt_at: DateTime.nullable(),
    claimed_until_ms: z.number().int().min(0).nullable(),
    releases: z.array(z.string()).optional(),
  }),
  answer: (d) => [WebhookDelivery, presentDelivery(d)],
  id: ownId,
  uniqueKey: noKey,
  invariants: (d) => when(d.state !== 'pending' && d.next_attempt_at !== null, ['next_attempt_at'], 'only a pending delivery has a next attempt'),
});

const event = rule<{ id: string }>({ stored: SandboxEvent, id: ownId, uniqueKey: noKey });

// Idempotency records: the sandbox's own, answered by no route but replayed to their requests.

const idempotency = rule<IdempotencyRecord>({
  stored: z.object({
    key: z.string(),
    operation_id: z.string(),
    state: oneOf<IdempotencyRecord['state']>({ in_progress: true, completed: true, failed: true }),
    response: z.object({ status: z.number().int().min(100).max(599), body: z.unknown() }).nullable(),
    created_at_ms: z.number().int().min(0),
    changes_saved: z.boolean().optional(),
  }),
  id: (r) => r.key,
  uniqueKey: noKey,
  // A completed request is replayed: its answer must be there.
  invariants: (r) => when(r.state === 'completed' && r.response === null, ['response'], 'a completed request keeps its answer'),
});

// Sandbox rules: applied on every request or delivery of the merchant, so the API's own bounds (a
// pattern's length, a latency) and its counts hold for imported ones too.

const FaultRequest = CreateFaultRuleBody.innerType().shape;
const ChaosRequest = CreateWebhookChaosBody.shape;
/** A rule's PRNG state: what its seed starts it at, and every step keeps it in that range. */
const PrngState = FaultRequest.seed.unwrap();

const faultRule = rule<{ id: string }>({
  stored: FaultRule.extend({
    probability: FaultRequest.probability.unwrap(),
    seed: FaultRequest.seed.unwrap(),
    after: FaultRequest.after.unwrap(),
    times: FaultRequest.times.unwrap().nullable(),
    rng_state: PrngState,
    buckets: z.record(z.string(), z.object({ tokens: z.number().min(0), at_ms: z.number().int() })),
  }),
  id: ownId,
  uniqueKey: noKey,
  max: MAX_FAULT_RULES,
});

const webhookChaos = rule<{ id: string }>({
  stored: WebhookChaosRule.extend({
    probability: ChaosRequest.probability.unwrap(),
    seed: ChaosRequest.seed.unwrap(),
    times: ChaosRequest.times.unwrap().nullable(),
    rng_state: PrngState,
    holding: z.array(z.object({ webhook_id: z.string(), delivery_id: z.string() })),
  }),
  id: ownId,
  uniqueKey: noKey,
  max: MAX_WEBHOOK_CHAOS_RULES,
});

/** The rules of every kind of record: typed over all of them, so a new kind cannot go unchecked. */
export const STORED_RULES: { [K in RecordKind]: StoredRule<never> } = {
  customer,
  customer_session: customerSession,
  checkout_session: checkoutSession,
  payment_link: paymentLink,
  payment,
  payer_page: payerPage,
  payment_method: paymentMethod,
  subscription,
  recipient,
  transfer,
  balance,
  banking_entity: bankingEntity,
  banking_onboarding: bankingOnboarding,
  banking_account: bankingAccount,
  webhook,
  webhook_delivery: delivery,
  event,
  idempotency,
  fault_rule: faultRule,
  webhook_chaos: webhookChaos,
};
