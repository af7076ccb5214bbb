import type { RecordKind, Tx } from '../store/types.js';

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
