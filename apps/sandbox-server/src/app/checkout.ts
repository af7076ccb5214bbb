import type { CheckoutSession, CreateCheckoutSessionBody, CreatePaymentLinkBody, PaymentLink } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { followLastPayment, type PaymentLinkState } from '../domain/payment-links.js';
import type { PaymentState } from '../domain/payment-state.js';
import { requireCustomer } from './customers.js';
import { defaultCheckoutId } from './default-checkout.js';
import { event } from '../domain/events.js';
import { HOUR_MS } from '../runtime/clock.js';
import type { Tx } from '../store/types.js';
import { nowOf, recordEvents, requireAccount, type RequestContext } from './context.js';

/** A checkout session takes one payment and expires 5 hours after creation (upstream). */
export const CHECKOUT_SESSION_TTL_MS = 5 * HOUR_MS;

/** What the sandbox keeps for a checkout session besides its API view. */
export interface CheckoutSessionState {
  resource: CheckoutSession;
  account_id: string;
  expires_at: string;
  payment_id: string | null;
}

export async function createCheckoutSession(ctx: RequestContext, body: CreateCheckoutSessionBody): Promise<CheckoutSession> {
  requireAccount(ctx, body.account_id);
  const now = nowOf(ctx);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    if (body.customer_id) await requireCustomer(tx, body.customer_id);
    const resource: CheckoutSession = {
      checkout_session: ctx.ids.uuid(),
      merchant_order_id: body.merchant_order_id,
      country: body.country,
      payment_description: body.payment_description,
      customer_id: body.customer_id ?? '',
      callback_url: body.callback_url ?? '',
      amount: body.amount ?? null,
      created_at: now.toISOString(),
      metadata: body.metadata ?? null,
      // Upstream answers SDK_CHECKOUT to a session created without a workflow (Create Checkout Session, min. data).
      workflow: body.workflow ?? 'SDK_CHECKOUT',
      installments: { plan_id: body.installments?.plan_id ?? null, plan: body.installments?.plan ?? null },
      checkout_id: body.checkout_id ?? defaultCheckoutId(body.account_id),
    };
    const state: CheckoutSessionState = {
      resource,
      account_id: body.account_id,
      expires_at: new Date(now.getTime() + CHECKOUT_SESSION_TTL_MS).toISOString(),
      payment_id: null,
    };
    // Keyed by its id too, so the hosted checkout page (/checkout/sessions/{id}) finds its merchant.
    await tx.put('checkout_session', resource.checkout_session, state, resource.checkout_session);
    await recordEvents(ctx, tx, [event('checkout_session.created', 'checkout_session', resource.checkout_session, body.account_id, {})]);
    return resource;
  });
}

export async function createPaymentLink(ctx: RequestContext, body: CreatePaymentLinkBody): Promise<PaymentLink> {
  requireAccount(ctx, body.account_id);
  const now = nowOf(ctx);
  const finish = body.availability?.finish_at;
  if (finish && Date.parse(finish) <= now.getTime()) {
    throw new DomainError('INVALID_PARAMETERS', [`availability.finish_at ${finish} is not in the future (sandbox time ${now.toISOString()})`]);
  }
  const code = ctx.ids.token('', 12);
  const link: PaymentLink = {
    id: ctx.ids.uuid(),
    code,
    account_id: body.account_id,
    account_code: body.account_id,
    country: body.country,
    availability: { start_at: body.availability?.start_at ?? now.toISOString(), finish_at: finish ?? null },
    status: 'CREATED',
    merchant_order_id: body.merchant_order_id ?? '',
    description: body.description ?? '',
    amount: body.amount,
    capture: body.capture ?? true,
    metadata: body.metadata ?? null,
    split_payment_methods: body.split_payment_methods ?? false,
    payment_method_types: body.payment_method_types,
    one_time_use: body.one_time_use ?? false,
    payments: null,
    callback_url: body.callback_url ?? '',
    installments_plan: body.installments_plan ?? null,
    customer_payer: body.customer_payer ?? null,
    taxes: body.taxes ?? null,
    additional_data: { airline: null, order: null, seller_details: null, ...body.additional_data },
    checkout_url: `${ctx.baseUrl}/checkout/links/${code}`,
    payments_number: 0,
    merchant_image: '',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    await tx.put<PaymentLinkState>('payment_link', link.id, { ...link, vault_on_success: body.vault_on_success ?? false }, code);
    await recordEvents(ctx, tx, [event('payment_link.created', 'payment_link', link.id, body.account_id, { code })]);
  });
  return link;
}

/**
 * Keeps a one-time link in step with its last payment, in the transaction that changes the payment
 * (domain/payment-links.ts, `followLastPayment`): the payment is already held, and its link is
 * held after it, the order every change to a payment takes; a new payment holds the link alone.
 * A payment of a link for many payments leaves the link alone (`one_time_use` false on the
 * payment): nothing there follows it, and the link is not held. Payments stored before they
 * carried `one_time_use` ask the link.
 */
export async function followLinkPayment(tx: Tx, payment: PaymentState, now: string): Promise<void> {
  const origin = payment.payment_link;
  if (!origin || origin.one_time_use === false) return;
  const link = await tx.getByUniqueKey<PaymentLinkState>('payment_link', origin.code);
  const next = link && followLastPayment(link, payment, now);
  if (next) await tx.put<PaymentLinkState>('payment_link', next.id, next, origin.code);
}

/** Saves a payment and, with it, what its link keeps of it (`followLinkPayment`): every change to a payment is saved so. */
export async function savePayment(tx: Tx, payment: PaymentState, now: string): Promise<void> {
  await tx.put('payment', payment.id, payment);
  await followLinkPayment(tx, payment, now);
}
