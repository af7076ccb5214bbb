import { DEFAULT_INSPECTOR_LIMIT, type BankingAccount, type BankingEntity, type BankingOnboarding, type Customer, type InspectorOverview, type Recipient } from '@switchyard/contract';
import { fromUnits } from '../domain/money.js';
import type { PaymentState } from '../domain/payment-state.js';
import { presentRetrievedPayment } from '../domain/payment-view.js';
import type { SubscriptionState } from '../domain/subscriptions.js';
import { presentSubscription } from '../domain/subscription-view.js';
import { presentTransfer, type TransferState } from '../domain/transfers.js';
import type { Tx } from '../store/types.js';
import type { RequestContext } from './context.js';

/** The last `limit` of `all` (the store lists in insertion order), newest first, and how many there are. */
function newest<T, R>(all: T[], limit: number, present: (item: T) => R): { total: number; items: R[] } {
  return { total: all.length, items: all.slice(-limit).reverse().map(present) };
}

/** The payments of a subscription's cycles, newest first: its scheduled charges and their retries. */
function cyclePayments(s: SubscriptionState, payments: PaymentState[], limit: number) {
  const own = payments.filter((p) => p.subscription_id === s.id);
  return newest(own, limit, (p) => ({
    payment_id: p.id,
    merchant_order_id: p.merchant_order_id,
    status: p.status,
    amount: { currency: p.currency, value: fromUnits(p.amount_units) },
    created_at: p.created_at,
  })).items;
}

async function readOverview(tx: Tx, limit: number): Promise<InspectorOverview> {
  const payments = await tx.list<PaymentState>('payment');
  const subscriptions = await tx.list<SubscriptionState>('subscription');
  return {
    limit,
    customers: newest(await tx.list<Customer>('customer'), limit, (c) => c),
    // As the retrieve answers by default: every transaction (refunds included), no raw provider answers.
    payments: newest(payments, limit, (p) => presentRetrievedPayment(p, { history: false, rawResponse: false })),
    subscriptions: newest(subscriptions, limit, (s) => ({ subscription: presentSubscription(s), cycle_payments: cyclePayments(s, payments, limit) })),
    recipients: newest(await tx.list<Recipient>('recipient'), limit, (r) => r),
    transfers: newest(await tx.list<TransferState>('transfer'), limit, presentTransfer),
    banking_entities: newest(await tx.list<BankingEntity>('banking_entity'), limit, (e) => e),
    banking_onboardings: newest(await tx.list<BankingOnboarding>('banking_onboarding'), limit, (o) => o),
    banking_accounts: newest(await tx.list<BankingAccount>('banking_account'), limit, (a) => a),
  };
}

/**
 * What the inspector page shows of the merchant's data (`GET /sandbox/inspector/overview`): the
 * newest `limit` records of each kind, in one transaction so the kinds agree with each other. It
 * reads; nothing falls due because someone looks (the clock's own routes run due work).
 */
export async function inspectorOverview(ctx: RequestContext, query: { limit?: number }): Promise<InspectorOverview> {
  const limit = query.limit ?? DEFAULT_INSPECTOR_LIMIT;
  return ctx.store.withTransaction(ctx.merchant.id, (tx) => readOverview(tx, limit));
}
