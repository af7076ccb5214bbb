import type { CreateSubscriptionBody, Subscription } from '@switchyard/contract';
import { badRequest } from '../errors.js';
import { toUnits } from '../domain/money.js';
import { presentSubscription as present } from '../domain/subscription-view.js';
import type { PaymentState } from '../domain/payment-state.js';
import { createPayment as createPaymentState } from '../domain/payments.js';
import {
  applyCharge,
  cycleAmountUnits,
  nextDueCharge,
  planManualRetry,
  type PlannedCharge,
  type SubscriptionState,
} from '../domain/subscriptions.js';
import { event } from '../domain/events.js';
import type { Tx } from '../store/types.js';
import { isoNow, nowOf, recordEvents, requireAccount, type RequestContext } from './context.js';
import { loadEnrolledMethod, outcomeOfCharge } from './payments.js';

/** A guard against runaway loops when the clock jumps years over a daily subscription. */
const MAX_CHARGES_PER_RUN = 5000;

/** One charge of the vaulted method for a cycle: a payment like any other, with no checkout session. */
async function charge(ctx: RequestContext, tx: Tx, s: SubscriptionState, planned: PlannedCharge): Promise<SubscriptionState> {
  const now = isoNow(ctx);
  const description = `${s.name} cycle ${planned.cycle}`;
  const { outcome, method } = await outcomeOfCharge(tx, s.payment_method.vaulted_token, description);
  const draft: PaymentState = {
    id: ctx.ids.uuid(),
    account_id: s.account_id,
    description,
    country: s.country,
    status: 'CREATED',
    sub_status: 'CREATED',
    merchant_order_id: `${s.id}-${planned.cycle}`,
    merchant_reference: s.merchant_reference,
    created_at: now,
    updated_at: now,
    currency: s.currency,
    amount_units: cycleAmountUnits(s, planned.cycle),
    authorized_units: 0,
    captured_units: 0,
    refunded_units: 0,
    charged_back_units: 0,
    checkout_session: null,
    subscription_id: s.id,
    payment_method: { type: method.type, vaulted_token: s.payment_method.vaulted_token, token: null, vault_on_success: false, capture: true, installments: null, soft_descriptor: null, card: method.card },
    customer_payer: s.customer_id ? { id: s.customer_id } : null,
    additional_data: s.additional_data,
    callback_url: null,
    workflow: 'DIRECT',
    metadata: s.metadata ?? [],
    split_marketplace: [],
    transactions: [],
    refund_in_progress: null,
    dispute: null,
  };
  const t = createPaymentState(draft, outcome, { now, transactionId: ctx.ids.uuid() });
  await tx.put('payment', t.payment.id, t.payment);
  const result = t.payment.status === 'SUCCEEDED' ? 'SUCCEEDED' : t.payment.status === 'DECLINED' ? 'DECLINED' : t.payment.status === 'PENDING' ? 'PENDING' : 'ERROR';
  const applied = applyCharge(s, planned, t.payment.id, result, now);
  await recordEvents(ctx, tx, [...t.events, ...applied.events]);
  return applied.subscription;
}

/** Charges everything that fell due on the merchant's clock. */
async function billDue(ctx: RequestContext, tx: Tx, s: SubscriptionState): Promise<SubscriptionState> {
  let current = s;
  for (let i = 0; i < MAX_CHARGES_PER_RUN; i += 1) {
    const planned = nextDueCharge(current, nowOf(ctx).getTime());
    if (!planned) break;
    current = await charge(ctx, tx, current, planned);
  }
  if (current !== s) await tx.put('subscription', current.id, current);
  return current;
}

async function load(tx: Tx, id: string): Promise<SubscriptionState> {
  const s = await tx.get<SubscriptionState>('subscription', id);
  if (!s) throw badRequest('SUBSCRIPTION_NOT_FOUND', `subscription ${id} not found`);
  return s;
}

export async function createSubscription(ctx: RequestContext, body: CreateSubscriptionBody): Promise<Subscription> {
  requireAccount(ctx, body.account_id);
  if (body.trial_period?.amount && body.trial_period.amount.currency !== body.amount.currency) {
    throw badRequest('INVALID_AMOUNT', `trial_period.amount.currency ${body.trial_period.amount.currency} differs from amount.currency ${body.amount.currency}`);
  }
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    await loadEnrolledMethod(tx, body.payment_method.vaulted_token);
    if (body.customer_payer && !(await tx.get('customer', body.customer_payer.id))) throw badRequest('CUSTOMER_NOT_FOUND', `customer ${body.customer_payer.id} not found`);
    const now = isoNow(ctx);
    const startAt = body.availability?.start_at ?? now;
    const trial = body.trial_period ? { billing_cycles: body.trial_period.billing_cycles, amount_units: body.trial_period.amount ? toUnits(body.trial_period.amount.value) : null } : null;
    const s: SubscriptionState = {
      id: ctx.ids.uuid(),
      name: body.name,
      account_id: body.account_id,
      country: body.country,
      description: body.description ?? null,
      merchant_reference: body.merchant_reference ?? null,
      status: trial ? 'TRIALING' : 'ACTIVE',
      currency: body.amount.currency,
      amount_units: toUnits(body.amount.value),
      frequency: { type: body.frequency?.type ?? 'MONTH', value: body.frequency?.value ?? 1 },
      billing_total: body.billing_cycles?.total ?? null,
      billing_current: 0,
      next_at: startAt,
      customer_id: body.customer_payer?.id ?? null,
      payment_method: { type: body.payment_method.type, vaulted_token: body.payment_method.vaulted_token },
      availability: { start_at: startAt, finish_at: body.availability?.finish_at ?? null },
      retries: { retry_on_decline: body.retries?.retry_on_decline ?? false, amount: body.retries?.amount ?? 0 },
      metadata: body.metadata ?? null,
      additional_data: (body.additional_data as Record<string, unknown> | undefined) ?? null,
      trial,
      initial_payment_validation: body.initial_payment_validation ?? false,
      latest: null,
      created_at: now,
      updated_at: now,
    };
    await tx.put('subscription', s.id, s);
    await recordEvents(ctx, tx, [event('subscription.create', 'subscription', s.id, s.account_id, { status: s.status })]);
    return present(await billDue(ctx, tx, s));
  });
}

export async function getSubscription(ctx: RequestContext, id: string): Promise<Subscription> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => present(await billDue(ctx, tx, await load(tx, id))));
}

export async function retrySubscription(ctx: RequestContext, id: string, accountCode: string | undefined): Promise<Subscription> {
  if (accountCode !== undefined) requireAccount(ctx, accountCode);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const s = await billDue(ctx, tx, await load(tx, id));
    if (accountCode !== undefined && s.account_id !== accountCode) throw badRequest('SUBSCRIPTION_NOT_FOUND', `subscription ${id} not found for account ${accountCode}`);
    const retried = await charge(ctx, tx, s, planManualRetry(s));
    await tx.put('subscription', retried.id, retried);
    return present(await billDue(ctx, tx, retried));
  });
}

/** Bills every subscription of the merchant that fell due (after the clock moved). */
export async function billAllDue(ctx: RequestContext): Promise<void> {
  await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    for (const s of await tx.list<SubscriptionState>('subscription')) await billDue(ctx, tx, s);
  });
}
