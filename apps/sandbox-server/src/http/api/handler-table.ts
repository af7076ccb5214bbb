import { fundRecipientBalance, getRecipientBalance } from '../../app/balances.js';
import { createEntity, createOnboarding, getOnboarding, settleOnboarding, updateAccount } from '../../app/banking.js';
import { createCheckoutSession, createPaymentLink } from '../../app/checkout.js';
import { createCustomer, createCustomerSession, getCustomer } from '../../app/customers.js';
import { createRecipient, createTransfer, reverseTransfer } from '../../app/marketplace.js';
import { completeEnrollment, enrollDirect, enrollInSession, scriptOutcomes } from '../../app/payment-methods.js';
import { cancelOrRefund, capturePayment, chargeback, createPayment, disputeChargeback, getPayment, refundTransaction, settleDispute } from '../../app/payments.js';
import { createMerchant, currentClock, listEvents, resetMerchant, rotateSecretKey } from '../../app/sandbox.js';
import { inspectorOverview } from '../../app/inspector.js';
import { createSubscription, getSubscription, retrySubscription } from '../../app/subscriptions.js';
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, redeliver, updateWebhook } from '../../app/webhooks.js';
import { sleep } from '../../runtime/sleep.js';
import { settlePayerOutcome } from '../../app/alternative-methods.js';
import { exportSnapshot, importSnapshot } from '../../app/snapshots.js';
import { clearFaultRules, createFaultRule, deleteFaultRule, listFaultRules } from '../../app/faults.js';
import { clearChaosRules, createChaosRule, deleteChaosRule, listChaosRules } from '../../app/webhook-chaos.js';
import type { Handlers } from './handler-types.js';

/**
 * Every route's handler, keyed as the contract's routers are. The contract gives each its
 * status, idempotency and authentication (handle.ts); a handler only maps the request to a use case.
 */
export const handlers: Handlers = {
  customers: {
    create: (ctx, { body }) => createCustomer(ctx, body),
    get: (ctx, { params }) => getCustomer(ctx, params.customer_id),
    createSession: (ctx, { body }) => createCustomerSession(ctx, body),
  },
  checkout: {
    createSession: (ctx, { body }) => createCheckoutSession(ctx, body),
    createPaymentLink: (ctx, { body }) => createPaymentLink(ctx, body),
  },
  paymentMethods: {
    enrollInSession: (ctx, { params, body, headers }) => enrollInSession(ctx, params.customer_session, body, headers['x-idempotency-key']),
    enrollDirect: (ctx, { params, body, headers }) => enrollDirect(ctx, params.customer_id, body, headers['x-idempotency-key']),
  },
  payments: {
    create: (ctx, { body }) => createPayment(ctx, body),
    get: (ctx, { params, query }) => getPayment(ctx, params.payment_id, query),
    capture: (ctx, { params, body }) => capturePayment(ctx, params.payment_id, params.transaction_id, body),
    refund: (ctx, { params, body }) => refundTransaction(ctx, params.id, params.transaction_id, body, ctx.providerLatencyMs, sleep),
    cancelOrRefund: (ctx, { params, body }) => cancelOrRefund(ctx, params.payment_id, body, ctx.providerLatencyMs, sleep),
    dispute: (ctx, { params, body }) => disputeChargeback(ctx, params.payment_id, params.transaction_id, body),
  },
  subscriptions: {
    create: (ctx, { body }) => createSubscription(ctx, body),
    get: (ctx, { params }) => getSubscription(ctx, params.id),
    retry: (ctx, { params, headers }) => retrySubscription(ctx, params.id, headers['x-account-code']),
  },
  marketplace: {
    createRecipient: (ctx, { body }) => createRecipient(ctx, body),
    createTransfer: (ctx, { body }) => createTransfer(ctx, body),
    reverseTransfer: (ctx, { params, body }) => reverseTransfer(ctx, params.transfer_id, body),
  },
  banking: {
    createEntity: (ctx, { body }) => createEntity(ctx, body),
    createOnboarding: (ctx, { params, body }) => createOnboarding(ctx, params.entity_id, body),
    getOnboarding: (ctx, { params }) => getOnboarding(ctx, params.entity_id, params.onboarding_id),
    updateAccount: (ctx, { params, body }) => updateAccount(ctx, params.account_id, body),
  },
  webhooks: {
    list: (ctx, { query }) => listWebhooks(ctx, query.account_id, query.state),
    create: (ctx, { body }) => createWebhook(ctx, body),
    get: (ctx, { params, query }) => getWebhook(ctx, params.webhook_id, query.account_id),
    update: (ctx, { params, body }) => updateWebhook(ctx, params.webhook_id, body),
    delete: (ctx, { params, query }) => deleteWebhook(ctx, params.webhook_id, query.account_id),
  },
  sandbox: {
    createMerchant: async (ctx, { body }) => {
      await ctx.merchantQuota.take(ctx.store);
      return createMerchant(ctx.store, ctx.clock, ctx.ids, body);
    },
    rotateSecretKey: (ctx) => rotateSecretKey(ctx),
    getClock: (ctx) => currentClock(ctx),
    // Everything that falls due, webhook retries included, runs before the answer: tests stay deterministic.
    advanceClock: (ctx, { body }) => ctx.clockAdvancer.advance(ctx, body.seconds),
    reset: (ctx) => resetMerchant(ctx, () => ctx.journal.clear(ctx.merchant.id)),
    listEvents: (ctx, { query }) => listEvents(ctx, query),
    chargeback: (ctx, { params, body }) => chargeback(ctx, params.payment_id, body),
    disputeOutcome: (ctx, { params, body }) => settleDispute(ctx, params.payment_id, body.outcome),
    payerOutcome: (ctx, { params, body }) => settlePayerOutcome(ctx, params.payment_id, body.outcome),
    completeEnrollment: (ctx, { params, body }) => completeEnrollment(ctx, params.customer_session, params.payment_method_id, body),
    scriptOutcomes: (ctx, { params, body }) => scriptOutcomes(ctx, params.vaulted_token, body.sequence),
    onboardingOutcome: (ctx, { params, body }) => settleOnboarding(ctx, params.onboarding_id, body.status),
    getRecipientBalance: (ctx, { params }) => getRecipientBalance(ctx, params.recipient_id),
    fundRecipientBalance: (ctx, { params, body }) => fundRecipientBalance(ctx, params.recipient_id, body.amount),
    listWebhookDeliveries: (ctx, { query }) => listDeliveries(ctx, query),
    redeliverWebhook: (ctx, { params }) => redeliver(params.delivery_id, (id) => ctx.dispatcher.attempt(ctx.merchant.id, id, true)),
    listRequests: (ctx, { query }) => ctx.journal.list(ctx.merchant.id, query),
    exportSnapshot: (ctx) => exportSnapshot(ctx),
    importSnapshot: (ctx, { body }) => importSnapshot(ctx, body),
    createFaultRule: (ctx, { body }) => createFaultRule(ctx, body),
    listFaultRules: (ctx) => listFaultRules(ctx),
    deleteFaultRule: (ctx, { params }) => deleteFaultRule(ctx, params.fault_id),
    clearFaultRules: (ctx) => clearFaultRules(ctx),
    getInspectorOverview: (ctx, { query }) => inspectorOverview(ctx, query),
    createWebhookChaos: (ctx, { body }) => createChaosRule(ctx, body),
    listWebhookChaos: (ctx) => listChaosRules(ctx),
    deleteWebhookChaos: (ctx, { params }) => deleteChaosRule(ctx, params.chaos_id),
    clearWebhookChaos: (ctx) => clearChaosRules(ctx),
  },
};
