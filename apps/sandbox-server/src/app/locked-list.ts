import { DomainError } from '../domain/errors.js';
import type { RecordKind, Store, Tx } from '../store/types.js';

/**
 * Every record of a kind whose records change as a set (a merchant's fault rules, its webhook
 * chaos rules: counters, PRNG state, a count limit), read under a lock named after the kind. On
 * PostgreSQL a plain list holds nothing, so two transactions that each read the set and write
 * back what they counted would lose one's update, or write back a rule the other deleted; the
 * memory store runs a merchant's transactions one at a time, where the lock costs nothing.
 */
export async function lockedList<T>(tx: Tx, kind: RecordKind): Promise<T[]> {
  await tx.lock(kind);
  return tx.list<T>(kind);
}

/**
 * A new rule's chance fields (contract `SeededChanceFields`, with `times`) and their defaults:
 * picked every time (probability 1), seed 0, no `times` limit. The caller starts the rule's PRNG
 * at `seed`.
 */
export function seededChance(body: { probability?: number; seed?: number; times?: number }): { probability: number; seed: number; times: number | null } {
  return { probability: body.probability ?? 1, seed: body.seed ?? 0, times: body.times ?? null };
}

export interface RuleListOptions<R, P> {
  kind: RecordKind;
  /** What one record is called in answers: `fault rule`. */
  noun: string;
  /** The most records a merchant holds. */
  max: number;
  /** The control route that deletes them all, named when the limit is reached. */
  clearRoute: string;
  /** The rule as the API answers it: without the sandbox's own bookkeeping (PRNG state, buckets, holdings). */
  present(rule: R): P;
}

/**
 * A merchant's bounded set of rules of one kind, each change made under the set's lock
 * (`lockedList`): adding checks the limit, removing finds the rule in the set it locked.
 */
export class RuleList<R extends { id: string }, P> {
  constructor(private readonly options: RuleListOptions<R, P>) {}

  present(rule: R): P {
    return this.options.present(rule);
  }

  /** The rules, locked until the transaction ends: for a transaction that writes back what they counted. */
  locked(tx: Tx): Promise<R[]> {
    return lockedList<R>(tx, this.options.kind);
  }

  /** The rules as the API answers them, oldest first. No lock: listing never waits for a request. */
  async list(store: Store, merchantId: string): Promise<P[]> {
    return (await store.withTransaction(merchantId, (tx) => tx.list<R>(this.options.kind))).map(this.options.present);
  }

  async add(tx: Tx, rule: R): Promise<void> {
    const { kind, noun, max, clearRoute } = this.options;
    if ((await this.locked(tx)).length >= max) throw new DomainError('INVALID_REQUEST', [`a merchant holds at most ${max} ${noun}s: delete some first (${clearRoute})`]);
    await tx.put(kind, rule.id, rule);
  }

  /** Deletes the rule `id`; NOT_FOUND when the merchant has none. Answers it and how many rules are left. */
  async remove(tx: Tx, id: string): Promise<{ removed: R; left: number }> {
    const rules = await this.locked(tx);
    const removed = rules.find((r) => r.id === id);
    if (!removed) throw new DomainError('NOT_FOUND', [`${this.options.noun} ${id} not found`]);
    await tx.delete(this.options.kind, id);
    return { removed, left: rules.length - 1 };
  }

  /** Deletes every rule; answers those deleted. */
  async clear(tx: Tx): Promise<R[]> {
    const rules = await this.locked(tx);
    for (const rule of rules) await tx.delete(this.options.kind, rule.id);
    return rules;
  }
}
