import type { CreatePaymentBody, PayerOutcome, Payment } from '@switchyard/contract';
import { alternativeMethod, settleByPayer } from '../domain/alternative-methods.js';
import { DomainError } from '../domain/errors.js';
import type { AlternativeMethodState, PaymentState } from '../domain/payment-state.js';
import { presentPayment } from '../domain/payment-view.js';
import { toUnits } from '../domain/money.js';
import { yieldToEventLoop } from '../runtime/yield.js';
import type { Store, Tx } from '../store/types.js';
import { asOf, isoNow, nowOf, recordEvents, type RequestContext } from './context.js';
import { savePayment } from './checkout.js';

/** Length of the code in a payer page's address (`/pay/{code}`): unguessable, like a link code. */
const PAGE_CODE_LENGTH = 24;

/** What a payer page code points at; stored under the code so the page finds the payment's merchant. */
interface PayerPage {
  payment_id: string;
}

/** The non-card method of a create-payment request, or null for a card. */
export function alternativeFor(ctx: RequestContext, body: CreatePaymentBody, now: string): AlternativeMethodState | null {
  const type = body.payment_method.type;
  if (type === undefined || type === 'CARD') return null;
  const detail = body.payment_method.detail;
  const wallet = detail?.wallet;
  return alternativeMethod({
    type,
    now,
    pageCode: ctx.ids.token('', PAGE_CODE_LENGTH),
    baseUrl: ctx.baseUrl,
    amountUnits: toUnits(body.amount.value),
    currency: body.amount.currency,
    expiresAt: detail?.ticket?.expires_at ?? detail?.bank_transfer?.expires_at ?? wallet?.expires_at,
    benefitType: detail?.ticket?.benefit_type,
    accountType: detail?.bank_transfer?.account_type,
    bankAccountMaskNumber: detail?.bank_transfer?.bank_account_mask_number,
    wallet: wallet ? { paymentToken: wallet.payment_token, lfd: wallet.card_data?.lfd, verify: wallet.verify } : undefined,
  });
}

/** Makes the payment's payer page reachable by its code (once, at creation). */
export async function registerPayerPage(tx: Tx, method: AlternativeMethodState | null, paymentId: string): Promise<void> {
  if (method?.page_code) await tx.put<PayerPage>('payer_page', method.page_code, { payment_id: paymentId }, method.page_code);
}

async function loadPayment(tx: Tx, paymentId: string): Promise<PaymentState> {
  const payment = await tx.get<PaymentState>('payment', paymentId);
  if (!payment) throw new DomainError('PAYMENT_NOT_FOUND', [`payment ${paymentId} not found`]);
  return payment;
}

/** Payments expired per transaction. */
const EXPIRY_BATCH = 100;

/**
 * Payments still waiting for their payer past their expiry become EXPIRED, stamped at their
 * expiry (run when the clock moves, and before a payer acts). Found through the due index.
 */
export async function expireWaitingPayments(ctx: RequestContext): Promise<void> {
  const nowMs = nowOf(ctx).getTime();
  for (;;) {
    const expired = await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
      const due = await tx.listDue<PaymentState>('payment', 'clock', nowMs, EXPIRY_BATCH);
      for (const p of due) {
        const at = asOf(ctx, Date.parse(p.payment_method.alternative?.expires_at as string));
        const t = settleByPayer(p, 'EXPIRED', isoNow(at));
        await savePayment(tx, t.payment, isoNow(at));
        await recordEvents(at, tx, t.events);
      }
      return due.length;
    });
    if (expired < EXPIRY_BATCH) return;
    await yieldToEventLoop();
  }
}

/** The payer's outcome (sandbox control API, or the payer page). */
export async function settlePayerOutcome(ctx: RequestContext, paymentId: string, outcome: PayerOutcome): Promise<Payment> {
  await expireWaitingPayments(ctx);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const t = settleByPayer(await loadPayment(tx, paymentId), outcome, isoNow(ctx));
    await savePayment(tx, t.payment, isoNow(ctx));
    await recordEvents(ctx, tx, t.events);
    return presentPayment(t.payment, t.transaction.id);
  });
}

/** The payment behind a payer page code and its merchant, or undefined for an unknown code. */
export async function findPayerPage(store: Store, code: string): Promise<{ merchantId: string; payment: PaymentState } | undefined> {
  const found = await store.locate<PayerPage>('payer_page', code);
  if (!found) return undefined;
  const payment = await store.withTransaction(found.merchantId, (tx) => tx.get<PaymentState>('payment', found.data.payment_id));
  return payment ? { merchantId: found.merchantId, payment } : undefined;
}
