import { TRIGGER_FIELDS, type CreateWebhookBody, type UpdateWebhookBody, type Webhook, type WebhookDelivery } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import type { DeliveryState } from '../domain/webhook-delivery.js';
import { checkRenewalDays } from '../domain/webhook-config.js';
import type { WebhookState } from '../domain/webhook-routing.js';
import { isoNow, limitsOf, requireAccount, type RequestContext } from './context.js';

const MASK = '***';
const mask = (value: string | null) => (value === null ? null : MASK);

export function presentWebhook(w: WebhookState): Webhook {
  return {
    ...w,
    api_key: mask(w.api_key),
    secret: mask(w.secret),
    hmac_client_secret: mask(w.hmac_client_secret),
    oauth2_client_secret: mask(w.oauth2_client_secret),
  };
}

export function presentDelivery(d: DeliveryState): WebhookDelivery {
  return {
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    webhook_id: d.webhook_id,
    url: d.url,
    state: d.state,
    idempotency_key: d.idempotency_key,
    attempts: d.attempts.map((a) => ({ ...a, chaos: a.chaos ?? null })),
    next_attempt_at: d.next_attempt_at,
    created_at: d.created_at,
    chaos: d.chaos ?? null,
  };
}

/** Upstream's webhook management answers a foreign account id 400 INVALID_ACCOUNT_ID (Manage Webhooks), not 403. */
const requireWebhookAccount = (ctx: RequestContext, accountId: string) => requireAccount(ctx, accountId, 'INVALID_ACCOUNT_ID');

const notFound = (id: string) => new DomainError('WEBHOOK_NOT_FOUND', [`webhook ${id} not found on this account`]);

/** Upstream refuses a second webhook with the same name, or with the same URL and an overlapping trigger. */
function conflictWith(existing: WebhookState[], candidate: WebhookState): WebhookState | undefined {
  return existing.find(
    (w) =>
      w.id !== candidate.id &&
      w.account_id === candidate.account_id &&
      (w.name === candidate.name || (w.url === candidate.url && TRIGGER_FIELDS.some((l) => (w[l] ?? []).some((t) => (candidate[l] ?? []).includes(t))))),
  );
}

/**
 * Each webhook is one more POST per event: the count per account is capped (checked under the
 * same lock as the clash, so two creates at once cannot both take the last place).
 */
function checkWebhookCount(existing: WebhookState[], candidate: WebhookState, max: number): void {
  if (existing.some((w) => w.id === candidate.id)) return;
  const others = existing.filter((w) => w.account_id === candidate.account_id && w.id !== candidate.id).length;
  if (others >= max) throw new DomainError('WEBHOOK_INVALID_REQUEST', [`account ${candidate.account_id} already has ${others} webhooks, the most one account may have (${max}); delete one first`]);
}

async function saveChecked(ctx: RequestContext, webhook: WebhookState): Promise<void> {
  checkRenewalDays(webhook);
  const refusal = ctx.webhookUrlRefusal?.(webhook.url);
  if (refusal) throw new DomainError('WEBHOOK_URL_UNSAFE', [`url ${webhook.url}: ${refusal}`]);
  await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    // No two alike is a rule over every webhook of the merchant: two saves check one at a time.
    await tx.lock('webhooks');
    const existing = await tx.list<WebhookState>('webhook');
    const clash = conflictWith(existing, webhook);
    if (clash) throw new DomainError('WEBHOOK_ALREADY_EXISTS', [`webhook ${clash.id} already has this name, or this URL with one of these triggers`]);
    checkWebhookCount(existing, webhook, limitsOf(ctx).webhooksPerAccount);
    await tx.put('webhook', webhook.id, webhook);
  });
}

export async function createWebhook(ctx: RequestContext, body: CreateWebhookBody): Promise<Webhook> {
  requireWebhookAccount(ctx, body.account_id);
  const now = isoNow(ctx);
  const webhook: WebhookState = {
    id: ctx.ids.token('wh_', 16),
    account_id: body.account_id,
    name: body.name,
    state: 'ACTIVE',
    url: body.url,
    api_key: body.api_key ?? null,
    secret: body.secret ?? null,
    hmac_client_secret: body.hmac_client_secret ?? null,
    oauth2_authentication_url: body.oauth2_authentication_url ?? null,
    oauth2_client_id: body.oauth2_client_id ?? null,
    oauth2_client_secret: body.oauth2_client_secret ?? null,
    oauth2_grant_type: body.oauth2_grant_type ?? null,
    oauth2_scope: body.oauth2_scope ?? null,
    oauth2_authorization_name: body.oauth2_authorization_name ?? null,
    oauth2_include_client_id: body.oauth2_include_client_id ?? false,
    enrollment_triggers: body.enrollment_triggers ?? null,
    payment_triggers: body.payment_triggers ?? null,
    report_triggers: body.report_triggers ?? null,
    subscription_triggers: body.subscription_triggers ?? null,
    onboarding_triggers: body.onboarding_triggers ?? null,
    renewal_days: body.renewal_days ?? null,
    created_at: now,
    updated_at: now,
  };
  await saveChecked(ctx, webhook);
  return presentWebhook(webhook);
}

async function load(ctx: RequestContext, id: string, accountId: string): Promise<WebhookState> {
  requireWebhookAccount(ctx, accountId);
  const w = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.get<WebhookState>('webhook', id));
  if (!w || w.account_id !== accountId) throw notFound(id);
  return w;
}

export async function listWebhooks(ctx: RequestContext, accountId: string, state: 'ACTIVE' | 'INACTIVE' | undefined): Promise<Webhook[]> {
  requireWebhookAccount(ctx, accountId);
  const all = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.list<WebhookState>('webhook'));
  return all.filter((w) => w.account_id === accountId && (!state || w.state === state)).map(presentWebhook);
}

export async function getWebhook(ctx: RequestContext, id: string, accountId: string): Promise<Webhook> {
  return presentWebhook(await load(ctx, id, accountId));
}

export async function updateWebhook(ctx: RequestContext, id: string, body: UpdateWebhookBody): Promise<Webhook> {
  const current = await load(ctx, id, body.account_id);
  const { account_id: _account, clear_renewal_days, ...changes } = body;
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const next: WebhookState = { ...current, ...defined, ...(clear_renewal_days ? { renewal_days: null } : {}), updated_at: isoNow(ctx) };
  await saveChecked(ctx, next);
  return presentWebhook(next);
}

export async function deleteWebhook(ctx: RequestContext, id: string, accountId: string): Promise<Webhook> {
  const current = await load(ctx, id, accountId);
  await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.delete('webhook', id));
  return presentWebhook(current);
}

export async function listDeliveries(ctx: RequestContext, query: { event_type?: string; webhook_id?: string; state?: string; limit?: number }): Promise<WebhookDelivery[]> {
  const all = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.list<DeliveryState>('webhook_delivery'));
  return all
    .filter((d) => (!query.event_type || d.event_type === query.event_type) && (!query.webhook_id || d.webhook_id === query.webhook_id) && (!query.state || d.state === query.state))
    .slice(-(query.limit ?? 100))
    .map(presentDelivery);
}

/** Makes one attempt of a delivery now, due or not; undefined when there is no such delivery or an attempt is in flight. */
export type AttemptNow = (deliveryId: string) => Promise<DeliveryState | undefined>;

/** Sends a delivery again at once (`POST /sandbox/webhooks/deliveries/{id}/redeliver`), through the dispatcher's `attempt`. */
export async function redeliver(deliveryId: string, attemptNow: AttemptNow): Promise<WebhookDelivery> {
  const delivery = await attemptNow(deliveryId);
  if (!delivery) throw new DomainError('NOT_FOUND', [`webhook delivery ${deliveryId} not found, or an attempt is in flight`]);
  return presentDelivery(delivery);
}
