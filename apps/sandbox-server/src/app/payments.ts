import type {
  CancelOrRefundBody,
  CaptureBody,
  CreatePaymentBody,
  DisputeBody,
  GetPaymentQuery,
  Payment,
  RefundBody,
  RetrievedPayment,
  TransactionResult,
} from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { chooseOutcome, type TestOutcome } from '../domain/cards.js';
import { readCard } from './card-input.js';
import { creditCapturedSplits } from './balances.js';
import { toUnits } from '../domain/money.js';
import { paymentDraft } from '../domain/payment-draft.js';
import type { PaymentState, StoredCard } from '../domain/payment-state.js';
import {
  cancel,
  capture,
  capturedCharge,
  completeChallenge,
  createPayment as createPaymentState,
  finishRefund,
  isCancellable,
  receiveChargeback,
  resolveDispute,
  startRefund,
  submitDispute,
  type RefundCommand,
  type Transition,
} from '../domain/payments.js';
import { presentPayment, presentRetrievedPayment, presentTransactionResult } from '../domain/payment-view.js';
import type { Tx } from '../store/types.js';
import { savePayment, type CheckoutSessionState } from './checkout.js';
import { isoNow, nowOf, recordEvents, requireAccount, type RequestContext } from './context.js';
import { outcomeOfCharge } from './enrolled-methods.js';
import { alternativeFor, registerPayerPage } from './alternative-methods.js';
import { checkRefundPolicy, startAlternativePayment } from '../domain/alternative-methods.js';

async function loadPayment(tx: Tx, paymentId: string): Promise<PaymentState> {
  const payment = await tx.get<PaymentState>('payment', paymentId);
  if (!payment) throw new DomainError('PAYMENT_NOT_FOUND', [`payment ${paymentId} not found`]);
  return payment;
}

/** Saves a transition, with the status of the payment's link; one that captures the payment credits its split recipients' balances. */
async function save(ctx: RequestContext, tx: Tx, t: Transition): Promise<void> {
  await savePayment(tx, t.payment, isoNow(ctx));
  if ((t.transaction.type === 'PURCHASE' || t.transaction.type === 'CAPTURE') && t.transaction.status === 'SUCCEEDED') {
    await creditCapturedSplits(tx, t.payment.account_id, t.payment.split_marketplace);
  }
  await recordEvents(ctx, tx, t.events);
}

/** Reads, applies one pure transition and saves, all in one transaction of the merchant. */
function transition(ctx: RequestContext, paymentId: string, apply: (p: PaymentState) => Transition): Promise<Transition> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const t = apply(await loadPayment(tx, paymentId));
    await save(ctx, tx, t);
    return t;
  });
}

function checkSession(ctx: RequestContext, id: string, session: CheckoutSessionState | undefined, body: CreatePaymentBody): CheckoutSessionState {
  if (!session) throw new DomainError('CHECKOUT_SESSION_NOT_FOUND', [`checkout session ${id} not found`]);
  if (session.payment_id) throw new DomainError('INVALID_STATE', [`checkout session ${id} already has a payment (${session.payment_id}); a session takes one payment`]);
  if (Date.parse(session.expires_at) <= nowOf(ctx).getTime()) {
    throw new DomainError('INVALID_STATE', [`checkout session ${id} expired at ${session.expires_at}`]);
  }
  if (session.account_id !== body.account_id) throw new DomainError('INVALID_PARAMETERS', [`checkout session ${id} belongs to another account_id`]);
  if (session.resource.country !== body.country) {
    throw new DomainError('INVALID_PARAMETERS', [`country ${body.country} does not match the checkout session's ${session.resource.country}`]);
  }
  const expected = session.resource.amount;
  if (expected && (expected.currency !== body.amount.currency || toUnits(expected.value) !== toUnits(body.amount.value))) {
    throw new DomainError('INVALID_AMOUNT', [`amount ${body.amount.value} ${body.amount.currency} does not match the checkout session's ${expected.value} ${expected.currency}`]);
  }
  return session;
}

/** The card (masked) and the outcome of a payment with raw card data. */
function cardForPayment(ctx: RequestContext, body: CreatePaymentBody): { card: StoredCard | null; outcome: TestOutcome } {
  const data = body.payment_method.detail?.card?.card_data;
  if (!data) return { card: null, outcome: chooseOutcome(undefined, body.description) };
  const { card, forced, expired } = readCard(ctx, data);
  const outcome: TestOutcome = expired ? { kind: 'declined', code: 'EXPIRED_CARD', message: 'Card expired' } : (forced ?? chooseOutcome(undefined, body.description));
  return { card: withThreeDSecure(card, outcome), outcome };
}

function withThreeDSecure(card: StoredCard, outcome: TestOutcome): StoredCard {
  if (outcome.kind === 'approved') return { ...card, three_d_secure: outcome.threeDSecure };
  if (outcome.kind === 'challenge') return { ...card, three_d_secure: 'challenge' };
  return card;
}

/**
 * What a hosted checkout adds to a payment the API would make the same way: the payment link it
 * pays, checked and counted in the payment's own transaction (so two payers of a one-time link
 * cannot both pay it).
 */
export interface LinkOrigin {
  link: NonNullable<PaymentState['payment_link']>;
  /** Runs in the payment's transaction before it is saved; throwing refuses the payment. */
  record: (tx: Tx, payment: PaymentState) => Promise<void>;
}

/** A token or vaulted_token sent empty: upstream's examples send `""` for "none" (the contract takes it). */
const sent = (value: string | undefined): string | undefined => (value === '' ? undefined : value);

export async function createPayment(ctx: RequestContext, body: CreatePaymentBody, origin?: LinkOrigin): Promise<Payment> {
  requireAccount(ctx, body.account_id);
  const pm = { ...body.payment_method, token: sent(body.payment_method.token), vaulted_token: sent(body.payment_method.vaulted_token) };
  if (pm.token !== undefined) {
    throw new DomainError('INVALID_PARAMETERS', ['payment_method.token: one-time tokens come from the checkout SDK, which the sandbox does not run; pay with detail.card.card_data or a vaulted_token']);
  }
  const raw = cardForPayment(ctx, body);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    // A back-to-back payment (DIRECT, REDIRECT) may come without a session (the contract decides
    // when): its country, amount and payer are then the body's alone.
    const sessionId = body.checkout?.session;
    const session = sessionId === undefined ? undefined : checkSession(ctx, sessionId, await tx.get<CheckoutSessionState>('checkout_session', sessionId), body);
    let { card, outcome } = raw;
    if (pm.vaulted_token !== undefined) {
      const charged = await outcomeOfCharge(tx, pm.vaulted_token, body.description);
      outcome = charged.outcome;
      card = charged.method.card ? withThreeDSecure(charged.method.card, outcome) : null;
    }
    const now = isoNow(ctx);
    const alternative = alternativeFor(ctx, body, now);
    const draft = paymentDraft({
      id: ctx.ids.uuid(),
      now,
      account_id: body.account_id,
      description: body.description,
      country: body.country,
      merchant_order_id: body.merchant_order_id,
      merchant_reference: body.merchant_reference,
      currency: body.amount.currency,
      amount_units: toUnits(body.amount.value),
      checkout_session: sessionId,
      payment_method: {
        type: pm.type ?? 'CARD',
        vaulted_token: pm.vaulted_token ?? null,
        vault_on_success: pm.vault_on_success,
        capture: alternative ? pm.detail?.wallet?.capture : pm.detail?.card?.capture,
        installments: pm.detail?.card?.installments,
        soft_descriptor: pm.detail?.card?.soft_descriptor,
        card,
        alternative,
      },
      customer_payer: (body.customer_payer as Record<string, unknown> | undefined) ?? (session?.resource.customer_id ? { id: session.resource.customer_id } : null),
      additional_data: (body.additional_data as Record<string, unknown> | undefined) ?? null,
      callback_url: body.callback_url ?? session?.resource.callback_url,
      workflow: body.workflow,
      metadata: body.metadata,
      split_marketplace: body.split_marketplace as Record<string, unknown>[] | undefined,
      payment_link: origin?.link,
    });
    const stamp = { now, transactionId: ctx.ids.uuid() };
    const t = alternative ? startAlternativePayment(draft, outcome, stamp) : createPaymentState(draft, outcome, stamp);
    await origin?.record(tx, t.payment);
    await registerPayerPage(tx, alternative, t.payment.id);
    // Keyed by its id as at creation (checkout.ts): the hosted checkout finds the session by it.
    if (session) await tx.put('checkout_session', session.resource.checkout_session, { ...session, payment_id: t.payment.id }, session.resource.checkout_session);
    await save(ctx, tx, t);
    return presentPayment(t.payment, t.transaction.id);
  });
}

/** The payer's answer to a card's 3-D Secure challenge (the hosted checkout's challenge page). */
export async function answerChallenge(ctx: RequestContext, paymentId: string, authenticated: boolean): Promise<Payment> {
  const t = await transition(ctx, paymentId, (p) => completeChallenge(p, authenticated, isoNow(ctx)));
  return presentPayment(t.payment, t.transaction.id);
}

/**
 * Upstream's retrieve answers every transaction of the payment, and the history and the provider's
 * raw answers only when asked (both default false).
 */
export async function getPayment(ctx: RequestContext, paymentId: string, query: GetPaymentQuery = {}): Promise<RetrievedPayment> {
  const payment = await ctx.store.withTransaction(ctx.merchant.id, (tx) => loadPayment(tx, paymentId));
  return presentRetrievedPayment(payment, { history: query.transactions_history ?? false, rawResponse: query.raw_response ?? false });
}

/** Answers the CAPTURE transaction with the payment inside, as upstream's Capture Authorization does. */
export async function capturePayment(ctx: RequestContext, paymentId: string, transactionId: string, body: CaptureBody): Promise<TransactionResult> {
  const t = await transition(ctx, paymentId, (p) =>
    capture(
      p,
      { transactionId, amountUnits: toUnits(body.amount.value), currency: body.amount.currency, merchantReference: body.merchant_reference, reason: body.reason },
      { now: isoNow(ctx), transactionId: ctx.ids.uuid() },
    ),
  );
  return presentTransactionResult(t.payment, t.transaction);
}

/** Simulated time the provider takes to confirm a refund (the `x-sandbox-provider-latency-ms` header). */
export type ProviderLatency = (ms: number) => Promise<void>;

/**
 * A refund is two transactions: the first checks the rules and records a PENDING refund, the
 * second (after the provider's simulated latency) completes it. Between the two, any other refund
 * of the payment is refused, which is how the spec's "no refund while another is in progress"
 * holds under concurrency.
 */
async function refundInTwoSteps(ctx: RequestContext, paymentId: string, cmd: RefundCommand, latencyMs: number, wait: ProviderLatency, toBankAccount: boolean): Promise<Transition> {
  await transition(ctx, paymentId, (p) => {
    checkRefundPolicy(p, toBankAccount);
    return startRefund(p, cmd, { now: isoNow(ctx), transactionId: ctx.ids.uuid() });
  });
  if (latencyMs > 0) await wait(latencyMs);
  return transition(ctx, paymentId, (p) => finishRefund(p, isoNow(ctx)));
}

export async function refundTransaction(
  ctx: RequestContext,
  paymentId: string,
  transactionId: string,
  body: RefundBody,
  latencyMs: number,
  wait: ProviderLatency,
): Promise<Payment> {
  const t = await refundInTwoSteps(
    ctx,
    paymentId,
    {
      transactionId,
      amountUnits: body.amount ? toUnits(body.amount.value) : undefined,
      currency: body.amount?.currency,
      reason: body.reason ?? null,
      description: body.description ?? null,
      merchantReference: body.merchant_reference,
    },
    latencyMs,
    wait,
    body.payment_method?.detail?.bank_transfer !== undefined,
  );
  return presentPayment(t.payment, t.transaction.id);
}

export async function cancelOrRefund(
  ctx: RequestContext,
  paymentId: string,
  body: CancelOrRefundBody,
  latencyMs: number,
  wait: ProviderLatency,
): Promise<TransactionResult> {
  const payment = await ctx.store.withTransaction(ctx.merchant.id, (tx) => loadPayment(tx, paymentId));
  const merchantReference = body.merchant_reference ?? payment.merchant_order_id;
  if (isCancellable(payment)) {
    if (body.amount) throw new DomainError('INVALID_AMOUNT', [`payment ${paymentId} is not captured: an authorization is cancelled in full, without amount`]);
    const t = await transition(ctx, paymentId, (p) => {
      if (!isCancellable(p)) throw new DomainError('INVALID_STATE', [`payment ${paymentId} changed while it was being cancelled`]);
      return cancel(p, { reason: body.reason, description: body.description ?? null, merchantReference }, { now: isoNow(ctx), transactionId: ctx.ids.uuid() });
    });
    return presentTransactionResult(t.payment, t.transaction);
  }
  const charge = capturedCharge(payment);
  if (!charge) {
    throw new DomainError('INVALID_STATE', [`payment ${paymentId} is ${payment.status}/${payment.sub_status}: it can be neither cancelled nor refunded`]);
  }
  const t = await refundInTwoSteps(
    ctx,
    paymentId,
    {
      transactionId: charge.id,
      amountUnits: body.amount ? toUnits(body.amount.value) : undefined,
      currency: body.amount?.currency,
      reason: body.reason,
      description: body.description ?? null,
      merchantReference,
    },
    latencyMs,
    wait,
    body.payment_method?.detail?.bank_transfer !== undefined,
  );
  return presentTransactionResult(t.payment, t.transaction);
}

const PDF_MAGIC = '%PDF';

export async function disputeChargeback(ctx: RequestContext, paymentId: string, transactionId: string, body: DisputeBody): Promise<Payment> {
  requireAccount(ctx, body.account_id);
  body.evidence.forEach((item, index) => {
    if (!Buffer.from(item.content, 'base64').subarray(0, 4).toString('latin1').startsWith(PDF_MAGIC)) {
      throw new DomainError('INVALID_PARAMETERS', [`evidence[${index}].content: is not a PDF document (it must start with %PDF)`]);
    }
  });
  const t = await transition(ctx, paymentId, (p) => {
    if (p.account_id !== body.account_id) throw new DomainError('PAYMENT_NOT_FOUND', [`payment ${paymentId} not found for account ${body.account_id}`]);
    return submitDispute(p, { transactionId, evidenceCount: body.evidence.length }, isoNow(ctx));
  });
  return presentPayment(t.payment, t.transaction.id);
}

export async function chargeback(ctx: RequestContext, paymentId: string, body: { amount?: number; reason?: string }): Promise<Payment> {
  const t = await transition(ctx, paymentId, (p) =>
    receiveChargeback(p, { amountUnits: body.amount === undefined ? undefined : toUnits(body.amount), reason: body.reason ?? null }, { now: isoNow(ctx), transactionId: ctx.ids.uuid() }),
  );
  return presentPayment(t.payment, t.transaction.id);
}

export async function settleDispute(ctx: RequestContext, paymentId: string, outcome: 'WON' | 'LOST'): Promise<Payment> {
  const t = await transition(ctx, paymentId, (p) => resolveDispute(p, outcome, isoNow(ctx)));
  return presentPayment(t.payment, t.transaction.id);
}
