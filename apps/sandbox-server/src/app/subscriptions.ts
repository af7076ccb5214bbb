import type { CreateSubscriptionBody, Subscription } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { requireCustomer } from './customers.js';
import { toUnits } from '../domain/money.js';
import { presentSubscription as present } from '../domain/subscription-view.js';
import { paymentDraft } from '../domain/payment-draft.js';
import { createPayment as createPaymentState } from '../domain/payments.js';
import {
  applyCharge,
  billingStart,
  cycleAmountUnits,
  cycleResultOf,
  nextChargeAtMs,
  nextDueCharge,
  planManualRetry,
  type PlannedCharge,
  type SubscriptionState,
} from '../domain/subscriptions.js';
import { event } from '../domain/events.js';
import type { Tx } from '../store/types.js';
import { yieldToEventLoop } from '../runtime/yield.js';
import { asOf, isoNow, limitsOf, nowOf, recordEvents, requireAccount, type RequestContext } from './context.js';
import { loadEnrolledMethod, outcomeOfCharge } from './enrolled-methods.js';

/** Charges per transaction: years of a daily subscription fall due at once never hold the event loop. */
const BILLING_BATCH = 25;


/**
 * One charge of the vaulted method for a cycle: a payment like any other, with no checkout
 * session. The subscription is saved before its events, so their webhook payloads show it charged.
 */
async function charge(ctx: RequestContext, tx: Tx, s: SubscriptionState, planned: PlannedCharge): Promise<SubscriptionState> {
  const now = isoNow(ctx);
  const description = `${s.name} cycle ${planned.cycle}`;
  const { outcome, method } = await outcomeOfCharge(tx, s.payment_method.vaulted_token, description);
  const draft = paymentDraft({
    id: ctx.ids.uuid(),
    now,
    account_id: s.account_id,
    description,
    country: s.country,
    merchant_order_id: `${s.id}-${planned.cycle}`,
    merchant_reference: s.merchant_reference,
    currency: s.currency,
    amount_units: cycleAmountUnits(s, planned.cycle),
    subscription_id: s.id,
    payment_method: { type: method.type, vaulted_token: s.payment_method.vaulted_token, card: method.card },
    customer_payer: s.customer_id ? { id: s.customer_id } : null,
    additional_data: s.additional_data,
    metadata: s.metadata,
  });
  const t = createPaymentState(draft, outcome, { now, transactionId: ctx.ids.uuid() });
  await tx.put('payment', t.payment.id, t.payment);
  const applied = applyCharge(s, planned, t.payment.id, cycleResultOf(t.payment), now);
  await tx.put('subscription', applied.subscription.id, applied.subscription);
  await recordEvents(ctx, tx, [...t.events, ...applied.events]);
  return applied.subscription;
}

/** Charges the one charge that is due at its time `atMs`, stamped then. */
function chargeDue(ctx: RequestContext, tx: Tx, s: SubscriptionState, atMs: number): Promise<SubscriptionState> {
  return charge(asOf(ctx, atMs), tx, s, nextDueCharge(s, atMs) as PlannedCharge);
}

/**
 * Charges everything that fell due on the merchant's clock, in batches, yielding between them (and
 * calling `betweenBatches`, which may throw to stop): what a clock advance, a read, a creation or a
 * retry does. A clock advanced by years, or a successful retry that brings a subscription back
 * after years past due, has thousands of cycles due at once.
 */
export async function billEverythingDue(ctx: RequestContext, betweenBatches?: () => void): Promise<void> {
  // Bounded (`TenantLimits.chargesPerRun`): what is left is due for the next run.
  for (let charged = 0, max = limitsOf(ctx).chargesPerRun; charged < max; ) {
    const made = await billDueBatch(ctx, Math.min(BILLING_BATCH, max - charged));
    if (made === 0) return;
    charged += made;
    await yieldToEventLoop();
    betweenBatches?.();
  }
}

/** The subscription as stored (after `billEverythingDue`). */
async function read(ctx: RequestContext, id: string): Promise<Subscription> {
  return present(await ctx.store.withTransaction(ctx.merchant.id, (tx) => load(tx, id)));
}

async function load(tx: Tx, id: string): Promise<SubscriptionState> {
  const s = await tx.get<SubscriptionState>('subscription', id);
  if (!s) throw new DomainError('SUBSCRIPTION_NOT_FOUND', [`subscription ${id} not found`]);
  return s;
}

export async function createSubscription(ctx: RequestContext, body: CreateSubscriptionBody): Promise<Subscription> {
  requireAccount(ctx, body.account_id);
  if (body.trial_period?.amount && body.trial_period.amount.currency !== body.amount.currency) {
    throw new DomainError('INVALID_AMOUNT', [`trial_period.amount.currency ${body.trial_period.amount.currency} differs from amount.currency ${body.amount.currency}`]);
  }
  const id = await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    await loadEnrolledMethod(tx, body.payment_method.vaulted_token);
    if (body.customer_payer) await requireCustomer(tx, body.customer_payer.id);
    const now = isoNow(ctx);
    const startAt = billingStart(body.availability?.start_at, now);
    const trial = body.trial_period ? { billing_cycles: body.trial_period.billing_cycles ?? 1, amount_units: body.trial_period.amount ? toUnits(body.trial_period.amount.value) : null } : null;
    const s: SubscriptionState = {
      id: ctx.ids.uuid(),
      name: body.name,
      account_id: body.account_id,
      country: body.country,
      description: body.description ?? null,
      merchant_reference: body.merchant_reference ?? null,
      soft_descriptor: body.soft_descriptor ?? '',
      // Upstream issues an agreement id with each subscription (Create Subscription: `sa_` and a UUID).
      subscription_agreement_id: `sa_${ctx.ids.uuid()}`,
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
    return s.id;
  });
  await billEverythingDue(ctx);
  return read(ctx, id);
}

export async function getSubscription(ctx: RequestContext, id: string): Promise<Subscription> {
  await billEverythingDue(ctx);
  return read(ctx, id);
}

export async function retrySubscription(ctx: RequestContext, id: string, accountCode: string | undefined): Promise<Subscription> {
  if (accountCode !== undefined) requireAccount(ctx, accountCode);
  await billEverythingDue(ctx);
  await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const s = await load(tx, id);
    if (accountCode !== undefined && s.account_id !== accountCode) throw new DomainError('SUBSCRIPTION_NOT_FOUND', [`subscription ${id} not found for account ${accountCode}`]);
    await charge(ctx, tx, s, planManualRetry(s));
  });
  // A successful retry lets the next scheduled cycles fall due, possibly many.
  await billEverythingDue(ctx);
  return read(ctx, id);
}

/**
 * One batch of the clock's billing: at most `limit` charges, across the merchant's subscriptions,
 * earliest first, each stamped at the time it fell due, in one transaction. Returns how many
 * charges it made; the clock calls it again until that is 0.
 */
async function billDueBatch(ctx: RequestContext, limit: number): Promise<number> {
  const nowMs = nowOf(ctx).getTime();
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const loaded = await tx.listDue<SubscriptionState>('subscription', 'clock', nowMs, limit);
    // With a full batch loaded, a subscription left out may fall due before a later cycle of a loaded one: stop where the loaded ones end.
    const horizon = loaded.length === limit ? (nextChargeAtMs(loaded[loaded.length - 1] as SubscriptionState) ?? nowMs) : nowMs;
    const due = new Map(loaded.map((s) => [s.id, s]));
    let charged = 0;
    while (charged < limit) {
      let next: { s: SubscriptionState; at: number } | undefined;
      for (const s of due.values()) {
        const at = nextChargeAtMs(s);
        if (at !== null && at <= horizon && (!next || at < next.at)) next = { s, at };
      }
      if (!next) break;
      const after = await chargeDue(ctx, tx, next.s, next.at);
      due.set(after.id, after);
      charged += 1;
    }
    return charged;
  });
}
