import { heldFor, isStillHeld, planChaos, type WebhookChaosRecord } from '../domain/webhook-chaos.js';
import type { DeliveryState } from '../domain/webhook-delivery.js';
import type { IdSource } from '../runtime/ids.js';
import type { Tx } from '../store/types.js';
import { lockedList } from './locked-list.js';

/**
 * The merchant's chaos rules during one outbox write: each delivery queued goes through
 * `planChaos`, and the rules' new counters and holdings are saved in the same transaction, so
 * replicas on one PostgreSQL share them. The rules are read once, and only when something is queued.
 */
export class ChaosPlanner {
  private rules: WebhookChaosRecord[] | undefined;
  private readonly changed = new Set<string>();

  constructor(
    private readonly tx: Tx,
    private readonly ids: IdSource,
  ) {}

  /** The deliveries to write for `delivery`: itself as chaos leaves it, and any copies. */
  async plan(delivery: DeliveryState): Promise<DeliveryState[]> {
    // Most merchants have no rules: only a non-empty set is read again under its lock, so
    // queuing deliveries stays parallel for them.
    this.rules ??= (await this.tx.list<WebhookChaosRecord>('webhook_chaos')).length === 0 ? [] : await lockedList<WebhookChaosRecord>(this.tx, 'webhook_chaos');
    if (this.rules.length === 0) return [delivery];
    const stillHeld: string[] = [];
    for (const id of heldFor(this.rules, delivery.webhook_id)) if (isStillHeld(await this.tx.get<DeliveryState>('webhook_delivery', id))) stillHeld.push(id);
    const plan = planChaos(this.rules, delivery, stillHeld, () => this.ids.uuid());
    plan.rules.forEach((rule, i) => {
      if (rule !== this.rules?.[i]) this.changed.add(rule.id);
    });
    this.rules = plan.rules;
    return plan.deliveries;
  }

  /** Writes the rules whose counters, PRNG or holdings changed. */
  async save(): Promise<void> {
    for (const rule of this.rules ?? []) if (this.changed.has(rule.id)) await this.tx.put('webhook_chaos', rule.id, rule);
  }
}
