import { MAX_FAULT_RULES, type CreateFaultRuleBody, type FaultRule } from '@switchyard/contract';
import { decideFault, type FaultDecision, type FaultRequest, type FaultRuleRecord } from '../faults/rules.js';
import type { MerchantRecord, Store } from '../store/types.js';
import { isoNow, type RequestContext } from './context.js';
import { RuleList, seededChance } from './locked-list.js';

const present = ({ rng_state: _rng, buckets: _buckets, ...rule }: FaultRuleRecord): FaultRule => rule;
const faultRules = new RuleList({ kind: 'fault_rule', noun: 'fault rule', max: MAX_FAULT_RULES, clearRoute: 'DELETE /sandbox/faults', present });

/**
 * The merchant marked as having fault rules, so the faults middleware reads them. Each mark is
 * counted: `unmarkingWhenEmptied` clears the mark only if no rule was stored since it looked.
 */
export const markedAsUsingFaultRules = (m: MerchantRecord): MerchantRecord => ({ ...m, fault_rules_used: true, fault_rules_marks: (m.fault_rules_marks ?? 0) + 1 });

/** The mark count stays: it only grows, so a count read earlier never matches a later mark. */
function unmarked({ fault_rules_used: _used, ...m }: MerchantRecord): MerchantRecord {
  return m;
}

/**
 * Runs `change`, which may leave the merchant without fault rules (it answers how many are
 * left), then clears the merchant's mark when none are, so its requests stop paying the rules
 * read. No concurrent rule is missed: every rule is marked after it is stored, and the mark
 * count is read before `change` looks at the rules. A rule `change` did not see is stored after
 * that look, so marked after the count was read: the count no longer matches and the mark stays,
 * or, when the clear came first, the rule's own mark sets it again. Marks and clears are
 * `updateMerchant` calls, which run one at a time and while no transaction of the merchant runs,
 * on every replica.
 */
export async function unmarkingWhenEmptied<T>(ctx: RequestContext, change: () => Promise<{ value: T; left: number }>): Promise<T> {
  const before = await ctx.store.getMerchant(ctx.merchant.id);
  const { value, left } = await change();
  if (before?.fault_rules_used && left === 0) {
    await ctx.store.updateMerchant(ctx.merchant.id, (m) => (m.fault_rules_marks === before.fault_rules_marks ? unmarked(m) : m));
  }
  return value;
}

/** Stores a rule for the merchant (at most MAX_FAULT_RULES), then marks the merchant as using fault rules. */
export async function createFaultRule(ctx: RequestContext, body: CreateFaultRuleBody): Promise<FaultRule> {
  const chance = seededChance(body);
  const rule: FaultRuleRecord = { id: ctx.ids.uuid(), match: body.match, effect: body.effect, ...chance, after: body.after ?? 0, matched: 0, fired: 0, created_at: isoNow(ctx), rng_state: chance.seed, buckets: {} };
  await ctx.store.withTransaction(ctx.merchant.id, (tx) => faultRules.add(tx, rule));
  // Always, whatever the authenticated record said: a concurrent delete may have cleared the mark since.
  await ctx.store.updateMerchant(ctx.merchant.id, markedAsUsingFaultRules);
  return faultRules.present(rule);
}

export async function listFaultRules(ctx: RequestContext): Promise<FaultRule[]> {
  return faultRules.list(ctx.store, ctx.merchant.id);
}

export async function deleteFaultRule(ctx: RequestContext, id: string): Promise<FaultRule> {
  return unmarkingWhenEmptied(ctx, async () => {
    const { removed, left } = await ctx.store.withTransaction(ctx.merchant.id, (tx) => faultRules.remove(tx, id));
    return { value: faultRules.present(removed), left };
  });
}

export async function clearFaultRules(ctx: RequestContext): Promise<{ deleted: number }> {
  return unmarkingWhenEmptied(ctx, async () => {
    const rules = await ctx.store.withTransaction(ctx.merchant.id, (tx) => faultRules.clear(tx));
    return { value: { deleted: rules.length }, left: 0 };
  });
}

/**
 * Runs the merchant's rules for one request and saves what they counted (matches, fires, PRNG
 * state, buckets) in the same transaction, so replicas on one PostgreSQL share every counter.
 */
export async function decideRequestFault(store: Store, merchantId: string, request: FaultRequest, nowMs: number): Promise<FaultDecision> {
  return store.withTransaction(merchantId, async (tx) => {
    const decision = decideFault(await faultRules.locked(tx), request, nowMs);
    for (const rule of decision.changed) await tx.put('fault_rule', rule.id, rule);
    return decision;
  });
}
