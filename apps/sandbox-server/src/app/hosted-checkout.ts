import { CreatePaymentBody, describeIssues } from '@switchyard/contract';
import { challengeAnswer } from '../domain/cards.js';
import { DomainError } from '../domain/errors.js';
import type { IdempotencyRecord } from '../domain/idempotency.js';
import { afterLinkPayment, hasLastPaymentStatus, linkState, type LinkState, type PaymentLinkState } from '../domain/payment-links.js';
import type { PaymentState } from '../domain/payment-state.js';
import { webAddress } from '../domain/web-address.js';
import { isAwaitingChallenge } from '../domain/payments.js';
import type { Store, Tx } from '../store/types.js';
import type { CardInput } from './card-input.js';
import { followLinkPayment, type CheckoutSessionState } from './checkout.js';
import { isoNow, nowOf, type RequestContext } from './context.js';
import { runIdempotent } from './idempotency.js';
import { answerChallenge, createPayment, type LinkOrigin } from './payments.js';

/** What a hosted checkout page takes a payment for: a payment link (by code) or a checkout session (by id). */
export type CheckoutTarget = { kind: 'link'; code: string } | { kind: 'session'; id: string };

/** The page's address on the sandbox's host: a link's `checkout_url`, or a session's page. */
export const checkoutPath = (target: CheckoutTarget): string =>
  target.kind === 'link' ? `/checkout/links/${encodeURIComponent(target.code)}` : `/checkout/sessions/${encodeURIComponent(target.id)}`;

/** What the buyer pays with: a card typed into the page, or another method the checkout allows. */
export type PayerChoice = { type: 'CARD'; card: CardInput } | { type: string };

/** What a hosted checkout shows and charges, the same for a link and a session. */
export interface Checkout {
  target: CheckoutTarget;
  /** The link (links only): its payments carry it (`payment_link_id`, `payment_link_code`), and whether it is one-time. */
  link: LinkOrigin['link'] | null;
  account_id: string;
  country: string;
  description: string;
  merchant_order_id: string;
  amount: { currency: string; value: number } | null;
  methods: string[];
  callback_url: string;
  capture: boolean;
  vault_on_success: boolean;
  customer_payer: Record<string, unknown> | null;
  state: LinkState | { payable: false; reason: 'used' | 'expired' | 'no amount'; message: string };
}

/** What the checkout's payment came to: what the page needs for its next step, kept as the attempt's idempotent answer. */
export interface CheckoutPayment {
  payment_id: string;
  status: string;
  sub_status: string;
  merchant_order_id: string;
  /** The payer page of a method that waits for the payer (`/pay/{code}`), else null. */
  redirect_url: string | null;
  awaiting_challenge: boolean;
}

/** The idempotency operation of a page's payment, under a key of its own per rendered form. */
const PAY_OPERATION = 'hostedCheckoutPay';
const attemptKey = (attempt: string) => `hosted-checkout:${attempt}`;

/**
 * Without `payment_method_types` a link shows "the methods set in the dashboard" (§4.12); the
 * sandbox has no dashboard, so it offers a card, as a session (§2.8 names no methods) does.
 */
const DEFAULT_METHODS = ['CARD'];

/** The merchant a checkout page belongs to, or undefined for an unknown code. */
export async function locateCheckout(store: Store, target: CheckoutTarget): Promise<string | undefined> {
  const found = target.kind === 'link' ? await store.locate('payment_link', target.code) : await store.locate('checkout_session', target.id);
  return found?.merchantId;
}

async function findLink(tx: Tx, code: string): Promise<PaymentLinkState | undefined> {
  return tx.getByUniqueKey<PaymentLinkState>('payment_link', code);
}

/**
 * A one-time link stored before links kept their last payment's status learns it, once, from that
 * payment: held first and the link after it, as every change to a payment holds them
 * (`followLinkPayment`), never the other way round, which such a change running beside it would
 * deadlock with. The link as it is afterwards.
 */
async function learnLastPaymentStatus(ctx: RequestContext, code: string, paymentId: string): Promise<PaymentLinkState | undefined> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const payment = await tx.get<PaymentState>('payment', paymentId);
    if (payment) await followLinkPayment(tx, payment, isoNow(ctx));
    return findLink(tx, code);
  });
}

function linkCheckout(link: PaymentLinkState, nowMs: number): Checkout {
  return {
    target: { kind: 'link', code: link.code },
    link: { id: link.id, code: link.code, one_time_use: link.one_time_use },
    account_id: link.account_id,
    country: link.country,
    // merchant_order_id and description are optional on a link (§4.12) and required on a payment: the code stands in.
    // A link answers "" for one not sent; links stored before that hold null.
    description: link.description || `Payment link ${link.code}`,
    merchant_order_id: link.merchant_order_id || link.code,
    amount: link.amount,
    methods: link.payment_method_types.length > 0 ? link.payment_method_types : DEFAULT_METHODS,
    callback_url: link.callback_url,
    capture: link.capture,
    vault_on_success: link.vault_on_success ?? false,
    customer_payer: link.customer_payer,
    state: linkState(link, nowMs),
  };
}

function sessionCheckout(s: CheckoutSessionState, nowMs: number): Checkout {
  const r = s.resource;
  const state: Checkout['state'] = s.payment_id
    ? { payable: false, reason: 'used', message: 'This checkout session already has its payment (a session takes one).' }
    : Date.parse(s.expires_at) <= nowMs
      ? { payable: false, reason: 'expired', message: `This checkout session expired at ${s.expires_at}.` }
      : r.amount
        ? { payable: true }
        : { payable: false, reason: 'no amount', message: 'This checkout session was created without an amount, so there is nothing to pay here.' };
  return {
    target: { kind: 'session', id: r.checkout_session },
    link: null,
    account_id: s.account_id,
    country: r.country,
    description: r.payment_description,
    merchant_order_id: r.merchant_order_id,
    amount: r.amount,
    methods: DEFAULT_METHODS,
    callback_url: r.callback_url,
    capture: true,
    vault_on_success: false,
    // The payment takes the session's customer from the session itself (app/payments.ts).
    customer_payer: null,
    state,
  };
}

/**
 * The checkout behind a page, as of the merchant's clock, or undefined when the merchant has no
 * such link or session. A link is read alone: what it needs of its last payment it keeps.
 */
export async function loadCheckout(ctx: RequestContext, target: CheckoutTarget): Promise<Checkout | undefined> {
  const nowMs = nowOf(ctx).getTime();
  if (target.kind === 'session') {
    const session = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.get<CheckoutSessionState>('checkout_session', target.id));
    return session && sessionCheckout(session, nowMs);
  }
  const stored = await ctx.store.withTransaction(ctx.merchant.id, (tx) => findLink(tx, target.code));
  const link = stored && !hasLastPaymentStatus(stored) && stored.last_payment_id ? await learnLastPaymentStatus(ctx, target.code, stored.last_payment_id) : stored;
  return link && linkCheckout(link, nowMs);
}

/** The create-payment request the API would receive for this checkout and choice, checked by the contract as the API checks it. */
export function paymentBody(checkout: Checkout, choice: PayerChoice): CreatePaymentBody {
  if (!checkout.amount) throw new DomainError('INVALID_STATE', [checkout.state.payable ? 'no amount to pay' : checkout.state.message]);
  const card = 'card' in choice ? choice.card : undefined;
  const body = {
    account_id: checkout.account_id,
    merchant_order_id: checkout.merchant_order_id,
    description: checkout.description,
    country: checkout.country,
    amount: checkout.amount,
    // A session's payment goes with the session (CHECKOUT); a link pays without one, a redirect flow.
    ...(checkout.target.kind === 'session' ? { checkout: { session: checkout.target.id }, workflow: 'CHECKOUT' } : { workflow: 'REDIRECT' }),
    payment_method: {
      type: choice.type,
      vault_on_success: checkout.vault_on_success,
      ...(card ? { detail: { card: { capture: checkout.capture, card_data: card } } } : {}),
    },
    ...(checkout.callback_url.length >= 3 ? { callback_url: checkout.callback_url } : {}),
  };
  const parsed = CreatePaymentBody.safeParse(body);
  if (!parsed.success) throw new DomainError('INVALID_PARAMETERS', describeIssues(parsed.error, 'body'));
  // The link's payer was checked by the link's own schema when it was created (its rules differ
  // slightly from a payment's): the buyer could not correct it here, so it goes to the payment as kept.
  return checkout.customer_payer ? { ...parsed.data, customer_payer: checkout.customer_payer as CreatePaymentBody['customer_payer'] } : parsed.data;
}

/**
 * Counts the payment on its link, in the payment's transaction, refusing it when the link cannot
 * be paid (any more). It holds the link and reads nothing else: not the link's last payment, which
 * a change to that payment holds before it holds the link.
 */
function linkOrigin(ctx: RequestContext, link: LinkOrigin['link']): LinkOrigin {
  const { code } = link;
  return {
    link,
    record: async (tx, payment) => {
      const current = await findLink(tx, code);
      if (!current) throw new DomainError('NOT_FOUND', [`payment link ${code} not found`]);
      const state = linkState(current, nowOf(ctx).getTime());
      if (!state.payable) throw new DomainError('INVALID_STATE', [state.message]);
      await tx.put<PaymentLinkState>('payment_link', current.id, afterLinkPayment(current, payment, isoNow(ctx)), code);
    },
  };
}

function summaryOf(p: PaymentState): CheckoutPayment {
  return {
    payment_id: p.id,
    status: p.status,
    sub_status: p.sub_status,
    merchant_order_id: p.merchant_order_id,
    redirect_url: p.payment_method.alternative?.redirect_url ?? null,
    awaiting_challenge: isAwaitingChallenge(p),
  };
}

async function loadPayment(ctx: RequestContext, paymentId: string): Promise<PaymentState | undefined> {
  return ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.get<PaymentState>('payment', paymentId));
}

/**
 * Pays the checkout through the API's own use case (create payment), once per `attempt`: the key
 * each rendered form carries, so a double click or a resubmitted form replays the first answer
 * instead of paying twice.
 */
export async function payCheckout(ctx: RequestContext, target: CheckoutTarget, attempt: string, choice: PayerChoice): Promise<CheckoutPayment> {
  const result = await runIdempotent(ctx, attemptKey(attempt), PAY_OPERATION, async (journaled) => {
    const checkout = await loadCheckout(journaled, target);
    if (!checkout) throw new DomainError('NOT_FOUND', ['this checkout does not exist']);
    if (!checkout.state.payable) throw new DomainError('INVALID_STATE', [checkout.state.message]);
    if (!checkout.methods.includes(choice.type)) {
      throw new DomainError('INVALID_PARAMETERS', [`this checkout takes ${checkout.methods.join(', ')}, not ${choice.type}`]);
    }
    const body = paymentBody(checkout, choice);
    const origin = checkout.link ? linkOrigin(journaled, checkout.link) : undefined;
    const payment = await createPayment(journaled, body, origin);
    const state = await loadPayment(journaled, payment.id);
    if (!state) throw new DomainError('INTERNAL_ERROR', [`payment ${payment.id} vanished after its creation`]);
    return { status: 200, body: summaryOf(state) };
  });
  const paid = result.body as CheckoutPayment;
  // A replayed answer is another checkout's when the form was filled in there: refused, it neither pays this one nor shows the other's payment.
  if (result.replayed && !(await isCheckoutsPayment(ctx, target, paid))) {
    throw new DomainError('INVALID_STATE', ['This form was filled in on another checkout page, and nothing was paid here. Check the details and pay with this page\'s form.']);
  }
  return paid;
}

/**
 * A form's attempt on this checkout after its submission: paid (its answer), still running, or
 * unknown (never sent, refused, or made on another checkout of the merchant).
 */
export async function attemptOutcome(ctx: RequestContext, target: CheckoutTarget, attempt: string): Promise<CheckoutPayment | 'in progress' | undefined> {
  const record = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.get<IdempotencyRecord>('idempotency', attemptKey(attempt)));
  if (record?.operation_id !== PAY_OPERATION) return undefined;
  if (record.state === 'in_progress') return 'in progress';
  const paid = record.state === 'completed' && record.response ? (record.response.body as CheckoutPayment) : undefined;
  return paid && (await isCheckoutsPayment(ctx, target, paid)) ? paid : undefined;
}

/**
 * Whether the checkout made the attempt's payment. Attempt keys are the merchant's (one idempotency
 * space per merchant, as the API's keys), so the attempt alone does not say which of its links or
 * sessions it paid: the payment does (`payment_link_code`, `checkout.session`).
 */
async function isCheckoutsPayment(ctx: RequestContext, target: CheckoutTarget, paid: CheckoutPayment): Promise<boolean> {
  return (await checkoutPayment(ctx, target, paid.payment_id)) !== undefined;
}

/** A payment the checkout made, or undefined when the payment is not this checkout's. */
export async function checkoutPayment(ctx: RequestContext, target: CheckoutTarget, paymentId: string): Promise<PaymentState | undefined> {
  const p = await loadPayment(ctx, paymentId);
  if (!p) return undefined;
  const ours = target.kind === 'link' ? p.payment_link?.code === target.code : p.checkout_session === target.id;
  return ours ? p : undefined;
}

/** The payer's one-time code on the challenge page: the payment afterwards, or `unknown` for a code the issuer does not know. */
export async function answerCheckoutChallenge(ctx: RequestContext, paymentId: string, otp: string): Promise<CheckoutPayment | 'unknown'> {
  const answer = challengeAnswer(otp);
  if (answer === 'unknown') return 'unknown';
  await answerChallenge(ctx, paymentId, answer === 'authenticated');
  const state = await loadPayment(ctx, paymentId);
  if (!state) throw new DomainError('PAYMENT_NOT_FOUND', [`payment ${paymentId} not found`]);
  return summaryOf(state);
}

/** Payment statuses after which the buyer goes back to the merchant at once: the money is taken or held. */
const WENT_THROUGH: readonly string[] = ['SUCCEEDED', 'PENDING'];

/** Whether the payment went through (approved, or authorized for a link with `capture: false`). */
export const wentThrough = (p: Pick<CheckoutPayment, 'status' | 'awaiting_challenge'>): boolean => WENT_THROUGH.includes(p.status) && !p.awaiting_challenge;

/**
 * The merchant's `callback_url` with the payment's identifiers added as query parameters
 * (`payment_id`, `status`, `sub_status`, `merchant_order_id`, and `checkout_session` or
 * `payment_link_code`), keeping the query it already has; undefined unless it is an http(s) address.
 */
export function callbackWith(callbackUrl: string, target: CheckoutTarget, p: CheckoutPayment): string | undefined {
  const url = webAddress(callbackUrl);
  if (!url) return undefined;
  url.searchParams.set('payment_id', p.payment_id);
  url.searchParams.set('status', p.status);
  url.searchParams.set('sub_status', p.sub_status);
  url.searchParams.set('merchant_order_id', p.merchant_order_id);
  if (target.kind === 'link') url.searchParams.set('payment_link_code', target.code);
  else url.searchParams.set('checkout_session', target.id);
  return url.toString();
}

