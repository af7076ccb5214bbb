import { ApiProblem } from '../errors.js';
import type { DomainEvent } from '../domain/events.js';
import type { BaseClock } from '../runtime/clock.js';
import type { IdSource } from '../runtime/ids.js';
import type { MerchantRecord, Store, Tx } from '../store/types.js';

/** Everything a use case needs about the caller and the runtime. */
export interface RequestContext {
  merchant: MerchantRecord;
  store: Store;
  clock: BaseClock;
  ids: IdSource;
  /** The sandbox's own public base URL (hosted checkout addresses are built on it). */
  baseUrl: string;
}

export const nowOf = (ctx: RequestContext): Date => ctx.clock.at(ctx.merchant.clock_offset_seconds);
export const isoNow = (ctx: RequestContext): string => nowOf(ctx).toISOString();

/** 403 when the merchant does not own the account id it names. */
export function requireAccount(ctx: RequestContext, accountId: string): void {
  if (!ctx.merchant.account_ids.includes(accountId)) {
    throw new ApiProblem(403, 'AUTHORIZATION_REQUIRED', [`account_id ${accountId} does not belong to these credentials`]);
  }
}

/** Stores events in the same transaction as the change they describe. */
export async function recordEvents(ctx: RequestContext, tx: Tx, events: DomainEvent[]): Promise<void> {
  const created_at = isoNow(ctx);
  for (const e of events) {
    const id = ctx.ids.uuid();
    await tx.put('event', id, { id, created_at, ...e });
  }
}
