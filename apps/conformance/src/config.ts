import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Ids of states the suite cannot create on a server without the `/sandbox` control API. */
export const Fixtures = z
  .object({
    customer_id: z.string(),
    customer_session: z.string(),
    checkout_session: z.string(),
    payment_id: z.string(),
    captured_transaction_id: z.string(),
    authorized_payment_id: z.string(),
    authorized_transaction_id: z.string(),
    chargeback_payment_id: z.string(),
    chargeback_transaction_id: z.string(),
    vaulted_token: z.string(),
    subscription_id: z.string(),
    declined_subscription_id: z.string(),
    recipient_id: z.string(),
    transfer_id: z.string(),
    entity_id: z.string(),
    onboarding_id: z.string(),
    banking_account_id: z.string(),
    webhook_id: z.string(),
  })
  .partial();
export type Fixtures = z.infer<typeof Fixtures>;

export type Profile = 'sandbox' | 'staging';

export interface ConformanceConfig {
  baseUrl: string;
  /** Where the /sandbox control API answers when it is not at baseUrl (e.g. behind a validating proxy). */
  controlUrl: string;
  publicKey: string;
  secretKey: string;
  accountId: string | undefined;
  profile: Profile;
  fixtures: Fixtures;
  seed: number;
  /** Staging: at most this many requests, at most `ratePerSecond` per second. */
  maxRequests: number;
  ratePerSecond: number;
}

/**
 * The suite reads its settings from CONFORMANCE_* variables (the CLI sets them). Not BASE_URL:
 * vitest overwrites that one.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ConformanceConfig {
  const baseUrl = env.CONFORMANCE_BASE_URL;
  if (!baseUrl) throw new Error('CONFORMANCE_BASE_URL is required');
  const profile = (env.CONFORMANCE_PROFILE ?? 'sandbox') as Profile;
  if (profile !== 'sandbox' && profile !== 'staging') throw new Error(`CONFORMANCE_PROFILE must be sandbox or staging, got ${profile}`);
  const fixtures = env.CONFORMANCE_FIXTURES ? Fixtures.parse(JSON.parse(readFileSync(env.CONFORMANCE_FIXTURES, 'utf8'))) : {};
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    controlUrl: (env.CONFORMANCE_CONTROL_URL || baseUrl).replace(/\/+$/, ''),
    publicKey: env.CONFORMANCE_PUBLIC_KEY ?? '',
    secretKey: env.CONFORMANCE_SECRET_KEY ?? '',
    accountId: env.CONFORMANCE_ACCOUNT_ID || undefined,
    profile,
    fixtures,
    seed: Number(env.CONFORMANCE_SEED ?? '1'),
    maxRequests: Number(env.CONFORMANCE_MAX_REQUESTS ?? (profile === 'staging' ? '500' : '1000000')),
    ratePerSecond: Number(env.CONFORMANCE_RATE ?? (profile === 'staging' ? '5' : '100000')),
  };
}
