import { MAX_WEBHOOK_CHAOS_RULES, type CreateWebhookChaosBody, type WebhookChaosRule } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { isStillHeld, releaseHeld, type WebhookChaosRecord } from '../domain/webhook-chaos.js';
import type { DeliveryState } from '../domain/webhook-delivery.js';
import type { WebhookState } from '../domain/webhook-routing.js';
import type { Tx } from '../store/types.js';
import { isoNow, type RequestContext } from './context.js';
import { lockedList } from './locked-list.js';

export function presentChaosRule(r: WebhookChaosRecord): WebhookChaosRule {
  const { rng_state: _rng, holding: _holding, ...rule } = r;
  return rule;
}

const notFound = (id: string) => new DomainError('NOT_FOUND', [`webhook chaos rule ${id} not found`]);

/** Stores a rule (at most MAX_WEBHOOK_CHAOS_RULES a merchant). A webhook it names must be one of the merchant's. */
export async function createChaosRule(ctx: RequestContext, body: CreateWebhookChaosBody): Promise<WebhookChaosRule> {
  const match = body.match ?? {};
  const seed = body.seed ?? 0;
  const rule: WebhookChaosRecord = {
    id: ctx.ids.uuid(),
    match,
    effect: body.effect,
    probability: body.probability ?? 1,
    seed,
    times: body.times ?? null,
    applied: 0,
    created_at: isoNow(ctx),
    rng_state: seed,
    holding: [],
  };
  await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    if (match.webhook_id !== undefined && !(await tx.get<WebhookState>('webhook', match.webhook_id))) {
      throw new DomainError('WEBHOOK_NOT_FOUND', [`match.webhook_id: webhook ${match.webhook_id} not found`]);
    }
    if ((await lockedList(tx, 'webhook_chaos')).length >= MAX_WEBHOOK_CHAOS_RULES) {
      throw new DomainError('INVALID_REQUEST', [`a merchant holds at most ${MAX_WEBHOOK_CHAOS_RULES} webhook chaos rules: delete some first (DELETE /sandbox/webhook-chaos)`]);
    }
    await tx.put('webhook_chaos', rule.id, rule);
  });
  return presentChaosRule(rule);
}

export async function listChaosRules(ctx: RequestContext): Promise<WebhookChaosRule[]> {
  const rules = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.list<WebhookChaosRecord>('webhook_chaos'));
  return rules.map(presentChaosRule);
}

/** Deletes rules; the deliveries they hold become due now, so deleting a rule never strands one. */
async function deleteRules(ctx: RequestContext, tx: Tx, rules: WebhookChaosRecord[]): Promise<number> {
  const now = isoNow(ctx);
  let released = 0;
  for (const rule of rules) {
    for (const { delivery_id } of rule.holding) {
      const held = await tx.get<DeliveryState>('webhook_delivery', delivery_id);
      if (!isStillHeld(held)) continue;
      await tx.put('webhook_delivery', held.id, releaseHeld(held, null, now));
      released += 1;
    }
    await tx.delete('webhook_chaos', rule.id);
  }
  return released;
}

export async function deleteChaosRule(ctx: RequestContext, id: string): Promise<WebhookChaosRule> {
  const { rule, released } = await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const found = (await lockedList<WebhookChaosRecord>(tx, 'webhook_chaos')).find((r) => r.id === id);
    if (!found) throw notFound(id);
    return { rule: found, released: await deleteRules(ctx, tx, [found]) };
  });
  if (released > 0) ctx.deliveriesQueued?.();
  return presentChaosRule(rule);
}

export async function clearChaosRules(ctx: RequestContext): Promise<{ deleted: number }> {
  const { deleted, released } = await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const rules = await lockedList<WebhookChaosRecord>(tx, 'webhook_chaos');
    return { deleted: rules.length, released: await deleteRules(ctx, tx, rules) };
  });
  if (released > 0) ctx.deliveriesQueued?.();
  return { deleted };
}
