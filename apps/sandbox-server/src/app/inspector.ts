import { DEFAULT_INSPECTOR_LIMIT, type BankingAccount, type BankingEntity, type BankingOnboarding, type InspectorOverview } from '@switchyard/contract';
import { presentCustomer } from '../domain/customer-view.js';
import { presentRecipient } from '../domain/recipient-view.js';
import { fromUnits } from '../domain/money.js';
import type { PaymentState } from '../domain/payment-state.js';
import { presentRetrievedPayment } from '../domain/payment-view.js';
import type { SubscriptionState } from '../domain/subscriptions.js';
import { presentSubscription } from '../domain/subscription-view.js';
import { presentTransfer } from '../domain/transfers.js';
import type { RecordKind, Tx } from '../store/types.js';
import type { RequestContext } from './context.js';

/** The newest `limit` records of a kind, newest first, as `present` shows them, and how many there are. */
async function newest<T, R>(tx: Tx, kind: RecordKind, limit: number, present: (item: T) => R): Promise<{ total: number; items: R[] }> {
  const { total, items } = await tx.newest<T>(kind, limit);
  return { total, items: items.map(present) };
}

const cyclePayment = (p: PaymentState) => ({
  payment_id: p.id,
  merchant_order_id: p.merchant_order_id,
  status: p.status,
  amount: { currency: p.currency, value: fromUnits(p.amount_units) },
  created_at: p.created_at,
});

/**
 * The subscriptions, each with the payments of its cycles (scheduled charges and their retries),
 * newest first: found by the payments' subscription through the store's index, so the read is
 * bounded by `limit` squared, not by the merchant's payments.
 */
async function subscriptionsWithCycles(tx: Tx, limit: number) {
  const subscriptions = await tx.newest<SubscriptionState>('subscription', limit);
  const payments = await tx.newestBy<PaymentState>(
    'payment',
    'subscription_id',
    subscriptions.items.map((s) => s.id),
    limit,
  );
  return {
    total: subscriptions.total,
    items: subscriptions.items.map((s, i) => ({ subscription: presentSubscription(s), cycle_payments: (payments[i] ?? []).map(cyclePayment) })),
  };
}

async function readOverview(tx: Tx, limit: number, merchant: InspectorOverview['merchant']): Promise<InspectorOverview> {
  return {
    merchant,
    limit,
    customers: await newest(tx, 'customer', limit, presentCustomer),
    // As the retrieve answers by default: every transaction (refunds included), no raw provider answers.
    payments: await newest(tx, 'payment', limit, (p: PaymentState) => presentRetrievedPayment(p, { history: false, rawResponse: false })),
    subscriptions: await subscriptionsWithCycles(tx, limit),
    recipients: await newest(tx, 'recipient', limit, presentRecipient),
    transfers: await newest(tx, 'transfer', limit, presentTransfer),
    banking_entities: await newest(tx, 'banking_entity', limit, (e: BankingEntity) => e),
    banking_onboardings: await newest(tx, 'banking_onboarding', limit, (o: BankingOnboarding) => o),
    banking_accounts: await newest(tx, 'banking_account', limit, (a: BankingAccount) => a),
  };
}

/**
 * What the inspector page shows of the merchant's data (`GET /sandbox/inspector/overview`): the
 * newest `limit` records of each kind, in one transaction so the kinds agree with each other. It
 * reads about `limit` records a kind (`limit` per shown subscription for its cycle payments),
 * whatever the merchant holds. It reads; nothing falls due because someone looks (the clock's own
 * routes run due work).
 */
export async function inspectorOverview(ctx: RequestContext, query: { limit?: number }): Promise<InspectorOverview> {
  const limit = query.limit ?? DEFAULT_INSPECTOR_LIMIT;
  const { id, name, account_ids } = ctx.merchant;
  return ctx.store.withTransaction(ctx.merchant.id, (tx) => readOverview(tx, limit, { id, name, account_ids }));
}
