import type { CreateMerchantBody, SandboxClock, SandboxEvent, SandboxMerchant } from '@switchyard/contract';
import type { BaseClock } from '../runtime/clock.js';
import type { SecretKeyDigests } from '../runtime/secret-keys.js';
import type { IdFactory } from '../runtime/ids.js';
import type { MerchantRecord, Store } from '../store/types.js';
import { nowOf, type RequestContext } from './context.js';

/** The built-in merchant every fresh sandbox has; its keys are documented in docs/sandbox.md. */
export const DEMO_MERCHANT = {
  id: 'mer_demo',
  name: 'Demo merchant',
  public_api_key: 'sandbox_pk_demo_switchyard',
  private_secret_key: 'sandbox_sk_demo_switchyard',
  account_ids: ['4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31'],
} as const;

/** A merchant as configured or created: its secret key in clear, which only the caller keeps. */
export interface MerchantKeys {
  id: string;
  name: string;
  public_api_key: string;
  private_secret_key: string;
  account_ids: string[];
}

/** The merchant as the store keeps it: the secret key only as its digest (docs/deploy.md, "Secrets at rest"). */
export function merchantRecord(secretKeys: SecretKeyDigests, keys: MerchantKeys, now: Date, fingerprintKey: string): MerchantRecord {
  const { private_secret_key: secretKey, ...rest } = keys;
  return { ...rest, secret_key_digest: secretKeys.digest(secretKey), fingerprint_key: fingerprintKey, clock_offset_seconds: 0, created_at: now.toISOString() };
}

/**
 * A fresh tenant (`sandbox_` key prefix, as upstream sandbox keys). Its id, keys and account ids
 * come from `ids.forNewMerchants()`: random, or with a seed the same for the n-th merchant of
 * every run. A store kept from an earlier run may hold that merchant already: the next ids of
 * the stream are taken then, so a new tenant never shares another's keys. The response is the
 * only place its secret key is ever shown: the store keeps a digest.
 */
export async function createMerchant(store: Store, clock: BaseClock, ids: IdFactory, body: CreateMerchantBody): Promise<SandboxMerchant> {
  const source = ids.forNewMerchants();
  for (;;) {
    const keys: MerchantKeys = {
      id: `mer_${source.bytes(8).toString('hex')}`,
      name: body.name ?? 'Sandbox merchant',
      public_api_key: `sandbox_pk_${source.bytes(24).toString('base64url')}`,
      private_secret_key: `sandbox_sk_${source.bytes(24).toString('base64url')}`,
      account_ids: Array.from({ length: body.accounts ?? 1 }, () => source.uuid()),
    };
    const merchant = merchantRecord(store.secretKeys, keys, clock.at(0), ids.fingerprintKey(keys.id));
    // Insert-if-absent, not check-then-put: two processes with one seed on one database may
    // reach the same ids at once, and only one of them gets them.
    if (await store.putMerchantIfAbsent(merchant)) return { ...keys, created_at: merchant.created_at };
  }
}

export function clockView(ctx: RequestContext): SandboxClock {
  return { now: nowOf(ctx).toISOString(), offset_seconds: ctx.merchant.clock_offset_seconds, frozen: ctx.clock.frozen };
}

export async function listEvents(ctx: RequestContext, query: { type?: string; resource_id?: string; limit?: number }): Promise<SandboxEvent[]> {
  const events = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.list<SandboxEvent>('event'));
  const matching = events.filter((e) => (!query.type || e.type === query.type) && (!query.resource_id || e.resource_id === query.resource_id));
  return matching.slice(-(query.limit ?? 100));
}
