import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { CreateMerchantBody, SandboxClock, SandboxEvent, SandboxMerchant } from '@switchyard/contract';
import { z } from 'zod';
import { ConfigError } from '../config-error.js';
import type { BaseClock } from '../runtime/clock.js';
import type { SecretKeyDigests } from '../runtime/secret-keys.js';
import type { IdFactory } from '../runtime/ids.js';
import type { MerchantRecord, Store } from '../store/types.js';
import { existingMerchant, nowOf, type RequestContext } from './context.js';
import { unmarkingWhenEmptied } from './faults.js';

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

/**
 * The merchant as the store keeps it: the secret key only as its digest (docs/deploy.md, "Secrets
 * at rest"), created at the clock's base time, its card fingerprint key from the id factory.
 */
function merchantRecord(secretKeys: SecretKeyDigests, clock: BaseClock, ids: IdFactory, keys: MerchantKeys): MerchantRecord {
  const { private_secret_key: secretKey, ...rest } = keys;
  return { ...rest, secret_key_digest: secretKeys.digest(secretKey), fingerprint_key: ids.fingerprintKey(keys.id), clock_offset_seconds: 0, created_at: clock.at(0).toISOString() };
}

/** The `--merchants` file: merchants with their keys and accounts, ids and names optional. */
const MerchantsFile = z.array(
  z.object({
    id: z.string().min(1).max(64).optional(),
    name: z.string().min(1).max(255).optional(),
    public_api_key: z.string().min(8),
    private_secret_key: z.string().min(8),
    account_ids: z.array(z.string().uuid()).min(1),
  }),
);

/** The demo merchant, and those of the merchants file if one is given. */
async function configuredMerchants(merchantsFile: string | undefined): Promise<MerchantKeys[]> {
  const merchants: MerchantKeys[] = [{ ...DEMO_MERCHANT, account_ids: [...DEMO_MERCHANT.account_ids] }];
  if (merchantsFile) {
    let parsed;
    try {
      parsed = MerchantsFile.parse(JSON.parse(await readFile(merchantsFile, 'utf8')));
    } catch (error) {
      throw new ConfigError(`cannot load merchants from ${merchantsFile}: ${(error as Error).message}`);
    }
    parsed.forEach((m, i) => merchants.push({ id: m.id ?? `mer_file_${i + 1}`, name: m.name ?? `Merchant ${i + 1}`, ...m }));
  }
  return merchants;
}

/** Stores the configured merchants (`configuredMerchants`) that the store does not hold yet; one already there is kept as it is. */
export async function seedMerchants(store: Store, clock: BaseClock, ids: IdFactory, merchantsFile: string | undefined): Promise<void> {
  for (const keys of await configuredMerchants(merchantsFile)) await store.putMerchantIfAbsent(merchantRecord(store.secretKeys, clock, ids, keys));
}

/** A merchant secret key made of `bytes` (24 random ones: 192 bits). */
const secretKeyOf = (bytes: Buffer) => `sandbox_sk_${bytes.toString('base64url')}`;

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
      private_secret_key: secretKeyOf(source.bytes(24)),
      account_ids: Array.from({ length: body.accounts ?? 1 }, () => source.uuid()),
    };
    const merchant = merchantRecord(store.secretKeys, clock, ids, keys);
    // Insert-if-absent, not check-then-put: two processes with one seed on one database may
    // reach the same ids at once, and only one of them gets them.
    if (await store.putMerchantIfAbsent(merchant)) return { ...keys, created_at: merchant.created_at };
  }
}

/**
 * Replaces the merchant's secret key (`POST /sandbox/secret-key/rotate`) with a new one, which
 * only this answer shows: the store keeps its digest, in place of the old key's, so the old key
 * stops working with no grace period (docs/sandbox.md, "Rotating the secret key"). The public key
 * stays. The change goes through `updateMerchant`, which refuses a request whose key was already
 * rotated away (`RequestStore`): of two rotations with one key, one wins.
 *
 * The new key is random even with `--seed`: every run with the seed would make a seeded one
 * again, and the merchant's seeded ids stay the ones a run without the rotation makes.
 */
export async function rotateSecretKey(ctx: RequestContext): Promise<SandboxMerchant> {
  const secretKey = secretKeyOf(randomBytes(24));
  const secret_key_digest = ctx.store.secretKeys.digest(secretKey);
  const merchant = await existingMerchant(ctx.store.updateMerchant(ctx.merchant.id, (m) => ({ ...m, secret_key_digest })));
  return { id: merchant.id, name: merchant.name, public_api_key: merchant.public_api_key, private_secret_key: secretKey, account_ids: [...merchant.account_ids], created_at: merchant.created_at };
}

export function clockView(ctx: RequestContext): SandboxClock {
  return { now: nowOf(ctx).toISOString(), offset_seconds: ctx.merchant.clock_offset_seconds, frozen: ctx.clock.frozen };
}

/** The merchant's clock as the store has it now: reading it runs no transaction that would check the request's record. */
export async function currentClock(ctx: RequestContext): Promise<SandboxClock> {
  return clockView({ ...ctx, merchant: await existingMerchant(ctx.store.getMerchant(ctx.merchant.id)) });
}

export async function listEvents(ctx: RequestContext, query: { type?: string; resource_id?: string; limit?: number }): Promise<SandboxEvent[]> {
  const events = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.list<SandboxEvent>('event'));
  const matching = events.filter((e) => (!query.type || e.type === query.type) && (!query.resource_id || e.resource_id === query.resource_id));
  return matching.slice(-(query.limit ?? 100));
}

/**
 * Deletes everything the merchant holds (`POST /sandbox/reset`), its fault rules among them, so
 * the merchant is unmarked as using them. `forget` drops what the caller keeps of it outside the
 * store (the request journal).
 */
export async function resetMerchant(ctx: RequestContext, forget: () => void): Promise<{ deleted: number }> {
  forget();
  return { deleted: await unmarkingWhenEmptied(ctx, async () => ({ value: await ctx.store.resetMerchant(ctx.merchant.id), left: 0 })) };
}
