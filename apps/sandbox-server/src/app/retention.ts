import type { SandboxEvent } from '@switchyard/contract';
import { IDEMPOTENCY_RETENTION_MS, type IdempotencyRecord } from '../domain/idempotency.js';
import type { DeliveryState } from '../domain/webhook-delivery.js';
import type { Store } from '../store/types.js';

/** How long events and finished webhook deliveries are kept, in sandbox time. */
export const EVENT_RETENTION_MS = 30 * 86400_000;

/**
 * Deletes what expired on the merchant's clock: idempotency records after 24 hours, events and
 * finished deliveries after 30 days. Keeps storage bounded however long a sandbox runs.
 */
export async function purgeExpired(store: Store, merchantId: string, nowMs: number): Promise<number> {
  return store.withTransaction(merchantId, async (tx) => {
    let purged = 0;
    for (const r of await tx.list<IdempotencyRecord>('idempotency')) {
      if (r.state !== 'in_progress' && nowMs - r.created_at_ms >= IDEMPOTENCY_RETENTION_MS) {
        await tx.delete('idempotency', r.key);
        purged += 1;
      }
    }
    for (const e of await tx.list<SandboxEvent>('event')) {
      if (nowMs - Date.parse(e.created_at) >= EVENT_RETENTION_MS) {
        await tx.delete('event', e.id);
        purged += 1;
      }
    }
    for (const d of await tx.list<DeliveryState>('webhook_delivery')) {
      if (d.state !== 'pending' && nowMs - Date.parse(d.created_at) >= EVENT_RETENTION_MS) {
        await tx.delete('webhook_delivery', d.id);
        purged += 1;
      }
    }
    return purged;
  });
}
