import { randomBytes, randomUUID } from 'node:crypto';
import type { CreateMerchantBody, SandboxClock, SandboxEvent, SandboxMerchant } from '@switchyard/contract';
import type { BaseClock } from '../runtime/clock.js';
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

export function publicView(m: MerchantRecord): SandboxMerchant {
  return { id: m.id, name: m.name, public_api_key: m.public_api_key, private_secret_key: m.private_secret_key, account_ids: m.account_ids, created_at: m.created_at };
}

export function merchantRecord(input: Omit<MerchantRecord, 'fingerprint_key' | 'clock_offset_seconds' | 'created_at'>, now: Date): MerchantRecord {
  return { ...input, fingerprint_key: randomBytes(32).toString('hex'), clock_offset_seconds: 0, created_at: now.toISOString() };
}

/** A fresh tenant with random keys (`sandbox_` prefix, as upstream sandbox keys). */
export async function createMerchant(store: Store, clock: BaseClock, body: CreateMerchantBody): Promise<SandboxMerchant> {
  const token = () => randomBytes(24).toString('base64url');
  const merchant = merchantRecord(
    {
      id: `mer_${randomBytes(8).toString('hex')}`,
      name: body.name ?? 'Sandbox merchant',
      public_api_key: `sandbox_pk_${token()}`,
      private_secret_key: `sandbox_sk_${token()}`,
      account_ids: Array.from({ length: body.accounts ?? 1 }, () => randomUUID()),
    },
    clock.at(0),
  );
  await store.putMerchant(merchant);
  return publicView(merchant);
}

export function clockView(ctx: RequestContext): SandboxClock {
  return { now: nowOf(ctx).toISOString(), offset_seconds: ctx.merchant.clock_offset_seconds, frozen: ctx.clock.frozen };
}

export async function listEvents(ctx: RequestContext, query: { type?: string; resource_id?: string; limit?: number }): Promise<SandboxEvent[]> {
  const events = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.list<SandboxEvent>('event'));
  const matching = events.filter((e) => (!query.type || e.type === query.type) && (!query.resource_id || e.resource_id === query.resource_id));
  return matching.slice(-(query.limit ?? 100));
}
