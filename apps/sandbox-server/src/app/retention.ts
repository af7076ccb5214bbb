import type { BaseClock } from '../runtime/clock.js';
import type { RecordKind, Store } from '../store/types.js';
import { yieldToEventLoop } from '../runtime/yield.js';

/** Records deleted per transaction: a purge never holds a merchant's lock for long. */
const PURGE_BATCH = 1000;

/** What retention deletes (`dueOf`): idempotency records 24 hours after creation, events and finished deliveries after 30 days. */
const PURGED_KINDS: RecordKind[] = ['idempotency', 'event', 'webhook_delivery'];

/**
 * Deletes what expired on the merchant's clock, through the due index, in batches, yielding to
 * other requests between them. Keeps storage bounded however long a sandbox runs or however far
 * its clock is advanced. Returns how many records went.
 */
export async function purgeExpired(store: Store, merchantId: string, nowMs: number): Promise<number> {
  let purged = 0;
  for (const kind of PURGED_KINDS) {
    for (;;) {
      const deleted = await store.withTransaction(merchantId, (tx) => tx.deleteDue(kind, 'retention', nowMs, PURGE_BATCH));
      purged += deleted;
      if (deleted < PURGE_BATCH) break;
      await yieldToEventLoop();
    }
  }
  return purged;
}

/** Retention for every merchant, each on its own clock: storage stays bounded on a sandbox whose clocks nobody advances. */
export async function purgeEveryMerchant(store: Store, clock: BaseClock): Promise<void> {
  for (const id of await store.listMerchantIds()) {
    const merchant = await store.getMerchant(id);
    if (merchant) await purgeExpired(store, id, clock.at(merchant.clock_offset_seconds).getTime());
  }
}
