import type { SandboxEvent } from '@switchyard/contract';
import { payerOf, type StoredCustomer } from '../domain/customer-view.js';
import type { PaymentMethodState } from '../domain/payment-method-state.js';
import { presentDirectMethod, presentSessionMethod } from '../domain/payment-method-view.js';
import type { PaymentState } from '../domain/payment-state.js';
import { presentPayment } from '../domain/payment-view.js';
import { presentSubscription } from '../domain/subscription-view.js';
import type { SubscriptionState } from '../domain/subscriptions.js';
import { presentTransfer, type TransferState } from '../domain/transfers.js';
import type { DeliveryState } from '../domain/webhook-delivery.js';
import { envelopeOf, isDeliverable, webhookWants, type WebhookState } from '../domain/webhook-routing.js';
import type { IdSource } from '../runtime/ids.js';
import type { Tx } from '../store/types.js';
import { ChaosPlanner } from './chaos-planner.js';

/** The resource an event is about, in its API shape, as the webhook payload carries it. */
async function payloadOf(tx: Tx, e: SandboxEvent): Promise<Record<string, unknown> | undefined> {
  switch (e.resource_type) {
    case 'payment': {
      const p = await tx.get<PaymentState>('payment', e.resource_id);
      return p && { payment: presentPayment(p, e.data.transaction_id as string | undefined) };
    }
    case 'payment_method': {
      const m = await tx.get<PaymentMethodState>('payment_method', e.resource_id);
      if (!m) return undefined;
      return { payment_method: m.flow === 'direct' ? presentDirectMethod(m) : presentSessionMethod(m, payerOf(await tx.get<StoredCustomer>('customer', m.customer_id))) };
    }
    case 'subscription': {
      const s = await tx.get<SubscriptionState>('subscription', e.resource_id);
      return s && { subscription: presentSubscription(s) };
    }
    case 'transfer': {
      const t = await tx.get<TransferState>('transfer', e.resource_id);
      return t && presentTransfer(t);
    }
    case 'banking_entity':
      return { entity: await tx.get('banking_entity', e.resource_id) };
    case 'banking_onboarding':
      return { onboarding: await tx.get('banking_onboarding', e.resource_id) };
    case 'banking_account':
      return { account: await tx.get('banking_account', e.resource_id) };
    default:
      return undefined;
  }
}

/**
 * Writes one delivery per (event, webhook that wants it), in the same transaction as the event:
 * the transactional outbox. The merchant's webhook chaos rules shape each one as it is queued
 * (a duplicate is one more delivery). Nothing is sent here; the dispatcher sends after the commit.
 * Returns how many deliveries were queued.
 */
export async function enqueueDeliveries(tx: Tx, ids: IdSource, events: SandboxEvent[]): Promise<number> {
  const deliverable = events.filter((e) => isDeliverable(e.type));
  if (deliverable.length === 0) return 0;
  const webhooks = await tx.list<WebhookState>('webhook');
  const chaos = new ChaosPlanner(tx, ids);
  let queued = 0;
  for (const e of deliverable) {
    const targets = webhooks.filter((w) => webhookWants(w, e.type, e.account_id));
    if (targets.length === 0) continue;
    const payload = await payloadOf(tx, e);
    if (!payload) continue;
    const { type, type_event, version, transfer } = envelopeOf(e.type);
    const envelope = {
      type,
      type_event,
      ...(transfer ? { transfer_id: e.resource_id } : {}),
      account_id: e.account_id ?? '',
      version,
      data: { ...payload, idempotency_key: e.id },
    };
    for (const w of targets) {
      const delivery: DeliveryState = {
        id: ids.uuid(),
        event_id: e.id,
        event_type: e.type,
        webhook_id: w.id,
        url: w.url,
        account_id: w.account_id,
        state: 'pending',
        idempotency_key: e.id,
        envelope,
        attempts: [],
        next_attempt_at: e.created_at,
        claimed_until_ms: null,
        created_at: e.created_at,
        chaos: null,
      };
      for (const d of await chaos.plan(delivery)) {
        await tx.put('webhook_delivery', d.id, d);
        queued += 1;
      }
    }
  }
  await chaos.save();
  return queued;
}
