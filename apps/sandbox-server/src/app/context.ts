import { DomainError } from '../domain/errors.js';
import type { SandboxEvent } from '@switchyard/contract';
import type { DomainEvent } from '../domain/events.js';
import { enqueueDeliveries } from './outbox.js';
import { BaseClock } from '../runtime/clock.js';
import type { IdSource } from '../runtime/ids.js';
import type { MerchantRecord, Store, Tx } from '../store/types.js';
import { DEFAULT_LIMITS, type TenantLimits } from '../tenant-limits.js';

/** Everything a use case needs about the caller and the runtime. */
export interface RequestContext {
  merchant: MerchantRecord;
  store: Store;
  clock: BaseClock;
  ids: IdSource;
  /** The sandbox's own public base URL (hosted checkout addresses are built on it). */
  baseUrl: string;
  /** Tells the webhook dispatcher that deliveries were queued for this merchant. */
  deliveriesQueued?: () => void;
  /** What a tenant may hold (`limitsOf`); the defaults when absent. */
  limits?: TenantLimits;
  /** Why a webhook may not be sent to a URL, or undefined (SANDBOX_WEBHOOK_DESTINATIONS); anything goes when absent. */
  webhookUrlRefusal?: (url: string) => string | undefined;
}

export const limitsOf = (ctx: Pick<RequestContext, 'limits'>): TenantLimits => ctx.limits ?? DEFAULT_LIMITS;

export const nowOf = (ctx: RequestContext): Date => ctx.clock.at(ctx.merchant.clock_offset_seconds);
export const isoNow = (ctx: RequestContext): string => ctx.clock.isoAt(ctx.merchant.clock_offset_seconds);

/**
 * The context as of an earlier moment on the merchant's clock. Work that fell due while the clock
 * moved (a cycle charge, an expiry) runs later in real time but is stamped with the moment it fell
 * due, as if the sandbox had been there.
 */
export function asOf(ctx: RequestContext, atMs: number): RequestContext {
  return { ...ctx, clock: new BaseClock(atMs - ctx.merchant.clock_offset_seconds * 1000) };
}

/**
 * The answer for keys that name no merchant (authentication), and for a merchant removed from the
 * store while a request of its was under way: to the caller both are keys that no longer work.
 */
export const invalidCredentials = () => new DomainError('INVALID_CREDENTIALS', ['invalid API credentials']);

/**
 * The merchant as the store has it now (`getMerchant`, `updateMerchant`), for what must act on
 * that and not on the request's record, which authentication may have taken from a cache
 * (docs/scaling.md); removed meanwhile, its keys no longer work (as for any unknown key).
 */
export async function existingMerchant(read: Promise<MerchantRecord | undefined>): Promise<MerchantRecord> {
  const merchant = await read;
  if (!merchant) throw invalidCredentials();
  return merchant;
}

/**
 * Refuses an account id the merchant does not own: AUTHORIZATION_REQUIRED, or the code of the
 * family that names it otherwise (webhook management: INVALID_ACCOUNT_ID).
 */
export function requireAccount(ctx: RequestContext, accountId: string, code: 'AUTHORIZATION_REQUIRED' | 'INVALID_ACCOUNT_ID' = 'AUTHORIZATION_REQUIRED'): void {
  if (!ctx.merchant.account_ids.includes(accountId)) {
    throw new DomainError(code, [`account_id ${accountId} does not belong to these credentials`]);
  }
}

/** Stores events, and the webhook deliveries they cause, in the same transaction as the change they describe. */
export async function recordEvents(ctx: RequestContext, tx: Tx, events: DomainEvent[]): Promise<void> {
  const created_at = isoNow(ctx);
  const stored: SandboxEvent[] = [];
  for (const e of events) {
    const record = { id: ctx.ids.uuid(), created_at, ...e };
    await tx.put('event', record.id, record);
    stored.push(record);
  }
  if ((await enqueueDeliveries(tx, ctx.ids, stored)) > 0) ctx.deliveriesQueued?.();
}
