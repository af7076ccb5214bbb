import type { CreateMerchantBody, SandboxClock, SandboxEvent, SandboxMerchant } from '@switchyard/contract';
import type { BaseClock } from '../runtime/clock.js';
import type { IdFactory } from '../runtime/ids.js';
import type { MerchantRecord, Store } from '../store/types.js';
import { nowOf, type RequestContext } from './context.js';
import { billAllDue } from './subscriptions.js';
import { expireOnboardings } from './banking.js';
import { purgeExpired } from './retention.js';

/** The built-in merchant every fresh sandbox has; its keys are documented in docs/sandbox.md. */
export const DEMO_MERCHANT = {
  id: 'mer_demo',
  name: 'Demo merchant',
  public_api_key: 'sandbox_pk_demo_switchyard',
  private_secret_key: 'sandbox_sk_demo_switchyard',
  account_ids: ['4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31'],
} as const;

export function publicView(m: MerchantRecord): SandboxMerchant {
  return { id: m.id, name: m.name, public_api_key: m.public_api_key, private_secret_key: m.private_secret_key, account_ids: m.account_ids, created_at: m.created_at };
}

export function merchantRecord(input: Omit<MerchantRecord, 'clock_offset_seconds' | 'created_at'>, now: Date): MerchantRecord {
  return { ...input, clock_offset_seconds: 0, created_at: now.toISOString() };
}

/**
 * A fresh tenant (`sandbox_` key prefix, as upstream sandbox keys). Its id, keys and account ids
 * come from `ids.forNewMerchants()`: random, or with a seed the same for the n-th merchant of
 * every run. A store kept from an earlier run may hold that merchant already: the next ids of
 * the stream are taken then, so a new tenant never shares another's keys.
 */
export async function createMerchant(store: Store, clock: BaseClock, ids: IdFactory, body: CreateMerchantBody): Promise<SandboxMerchant> {
  const source = ids.forNewMerchants();
  let merchant: MerchantRecord;
  do {
    const id = `mer_${source.bytes(8).toString('hex')}`;
    merchant = merchantRecord(
      {
        id,
        name: body.name ?? 'Sandbox merchant',
        public_api_key: `sandbox_pk_${source.bytes(24).toString('base64url')}`,
        private_secret_key: `sandbox_sk_${source.bytes(24).toString('base64url')}`,
        account_ids: Array.from({ length: body.accounts ?? 1 }, () => source.uuid()),
        fingerprint_key: ids.fingerprintKey(id),
      },
      clock.at(0),
    );
  } while (await store.getMerchant(merchant.id));
  await store.putMerchant(merchant);
  return publicView(merchant);
}

export function clockView(ctx: RequestContext): SandboxClock {
  return { now: nowOf(ctx).toISOString(), offset_seconds: ctx.merchant.clock_offset_seconds, frozen: ctx.clock.frozen };
}

/** Moves the merchant's clock forward, then runs everything that fell due: subscription cycles and retries, onboarding expiry. */
export async function advanceClock(ctx: RequestContext, seconds: number): Promise<SandboxClock> {
  const merchant = await ctx.store.updateMerchant(ctx.merchant.id, (m) => ({ ...m, clock_offset_seconds: m.clock_offset_seconds + seconds }));
  const advanced = { ...ctx, merchant: merchant ?? ctx.merchant };
  await billAllDue(advanced);
  await expireOnboardings(advanced);
  await purgeExpired(ctx.store, ctx.merchant.id, nowOf(advanced).getTime());
  return clockView(advanced);
}

export async function listEvents(ctx: RequestContext, query: { type?: string; resource_id?: string; limit?: number }): Promise<SandboxEvent[]> {
  const events = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.list<SandboxEvent>('event'));
  const matching = events.filter((e) => (!query.type || e.type === query.type) && (!query.resource_id || e.resource_id === query.resource_id));
  return matching.slice(-(query.limit ?? 100));
}
