import { MAX_WEBHOOK_CHAOS_RULES, type CreateWebhookChaosBody, type WebhookChaosRule } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { isStillHeld, releaseHeld, type WebhookChaosRecord } from '../domain/webhook-chaos.js';
import type { DeliveryState } from '../domain/webhook-delivery.js';
import type { WebhookState } from '../domain/webhook-routing.js';
import type { Tx } from '../store/types.js';
import { isoNow, type RequestContext } from './context.js';
import { RuleList, seededChance } from './locked-list.js';

const present = ({ rng_state: _rng, holding: _holding, ...rule }: WebhookChaosRecord): WebhookChaosRule => rule;
const chaosRules = new RuleList({ kind: 'webhook_chaos', noun: 'webhook chaos rule', max: MAX_WEBHOOK_CHAOS_RULES, clearRoute: 'DELETE /sandbox/webhook-chaos', present });

/** Stores a rule (at most MAX_WEBHOOK_CHAOS_RULES a merchant). A webhook it names must be one of the merchant's. */
export async function createChaosRule(ctx: RequestContext, body: CreateWebhookChaosBody): Promise<WebhookChaosRule> {
  const match = body.match ?? {};
  const chance = seededChance(body);
  const rule: WebhookChaosRecord = { id: ctx.ids.uuid(), match, effect: body.effect, ...chance, applied: 0, created_at: isoNow(ctx), rng_state: chance.seed, holding: [] };
  await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    if (match.webhook_id !== undefined && !(await tx.get<WebhookState>('webhook', match.webhook_id))) {
      throw new DomainError('WEBHOOK_NOT_FOUND', [`match.webhook_id: webhook ${match.webhook_id} not found`]);
    }
    await chaosRules.add(tx, rule);
  });
  return chaosRules.present(rule);
}

export async function listChaosRules(ctx: RequestContext): Promise<WebhookChaosRule[]> {
  return chaosRules.list(ctx.store, ctx.merchant.id);
}

/** Releases what deleted rules held: those deliveries become due now, so deleting a rule never strands one. */
async function releaseHoldings(ctx: RequestContext, tx: Tx, rules: WebhookChaosRecord[]): Promise<number> {
  const now = isoNow(ctx);
  let released = 0;
  for (const rule of rules) {
    for (const { delivery_id } of rule.holding) {
      const held = await tx.get<DeliveryState>('webhook_delivery', delivery_id);
      if (!isStillHeld(held)) continue;
      await tx.put('webhook_delivery', held.id, releaseHeld(held, null, now));
      released += 1;
    }
  }
  return released;
}

export async function deleteChaosRule(ctx: RequestContext, id: string): Promise<WebhookChaosRule> {
  const { rule, released } = await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const { removed } = await chaosRules.remove(tx, id);
    return { rule: removed, released: await releaseHoldings(ctx, tx, [removed]) };
  });
  if (released > 0) ctx.deliveriesQueued?.();
  return chaosRules.present(rule);
}

export async function clearChaosRules(ctx: RequestContext): Promise<{ deleted: number }> {
  const { deleted, released } = await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const rules = await chaosRules.clear(tx);
    return { deleted: rules.length, released: await releaseHoldings(ctx, tx, rules) };
  });
  if (released > 0) ctx.deliveriesQueued?.();
  return { deleted };
}
