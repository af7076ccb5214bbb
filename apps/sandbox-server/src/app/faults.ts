import { MAX_FAULT_RULES, type CreateFaultRuleBody, type FaultRule } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { decideFault, type FaultDecision, type FaultRequest, type FaultRuleRecord } from '../faults/rules.js';
import type { Store } from '../store/types.js';
import { isoNow, type RequestContext } from './context.js';
import { lockedList } from './locked-list.js';

export function presentFaultRule(r: FaultRuleRecord): FaultRule {
  const { rng_state: _rng, buckets: _buckets, ...rule } = r;
  return rule;
}

const notFound = (id: string) => new DomainError('NOT_FOUND', [`fault rule ${id} not found`]);

/**
 * Stores a rule for the merchant (at most MAX_FAULT_RULES). The merchant is marked as using
 * faults before the rule exists, so the middleware never skips a stored rule.
 */
export async function createFaultRule(ctx: RequestContext, body: CreateFaultRuleBody): Promise<FaultRule> {
  if (!ctx.merchant.fault_rules_used) await ctx.store.updateMerchant(ctx.merchant.id, (m) => ({ ...m, fault_rules_used: true }));
  const seed = body.seed ?? 0;
  const rule: FaultRuleRecord = {
    id: ctx.ids.uuid(),
    match: body.match,
    effect: body.effect,
    probability: body.probability ?? 1,
    seed,
    times: body.times ?? null,
    after: body.after ?? 0,
    matched: 0,
    fired: 0,
    created_at: isoNow(ctx),
    rng_state: seed,
    buckets: {},
  };
  await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    if ((await lockedList(tx, 'fault_rule')).length >= MAX_FAULT_RULES) {
      throw new DomainError('INVALID_REQUEST', [`a merchant holds at most ${MAX_FAULT_RULES} fault rules: delete some first (DELETE /sandbox/faults)`]);
    }
    await tx.put('fault_rule', rule.id, rule);
  });
  return presentFaultRule(rule);
}

export async function listFaultRules(ctx: RequestContext): Promise<FaultRule[]> {
  const rules = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.list<FaultRuleRecord>('fault_rule'));
  return rules.map(presentFaultRule);
}

export async function deleteFaultRule(ctx: RequestContext, id: string): Promise<FaultRule> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const rule = (await lockedList<FaultRuleRecord>(tx, 'fault_rule')).find((r) => r.id === id);
    if (!rule) throw notFound(id);
    await tx.delete('fault_rule', id);
    return presentFaultRule(rule);
  });
}

export async function clearFaultRules(ctx: RequestContext): Promise<{ deleted: number }> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const rules = await lockedList<FaultRuleRecord>(tx, 'fault_rule');
    for (const rule of rules) await tx.delete('fault_rule', rule.id);
    return { deleted: rules.length };
  });
}

/**
 * Runs the merchant's rules for one request and saves what they counted (matches, fires, PRNG
 * state, buckets) in the same transaction, so replicas on one PostgreSQL share every counter.
 */
export async function decideRequestFault(store: Store, merchantId: string, request: FaultRequest, nowMs: number): Promise<FaultDecision> {
  return store.withTransaction(merchantId, async (tx) => {
    const decision = decideFault(await lockedList<FaultRuleRecord>(tx, 'fault_rule'), request, nowMs);
    for (const rule of decision.changed) await tx.put('fault_rule', rule.id, rule);
    return decision;
  });
}
