import { readFileSync } from 'node:fs';
import { formatIssuePath } from '@switchyard/contract';
import { z } from 'zod';

/**
 * What a staging needs to be told: its test cards when they are not the sandbox's, and ids of
 * states the suite cannot make through the public API (a chargeback, a funded recipient, a settled
 * onboarding, a declined subscription). An id given is used instead of a state the suite would
 * make. Strict: a misspelt key would otherwise be dropped and its checks skipped for a reason the
 * user cannot see.
 */
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
    /** Card numbers the staging approves and declines. */
    test_cards: z.object({ approved: z.string().regex(/^\d{12,19}$/), declined: z.string().regex(/^\d{12,19}$/) }).partial().strict(),
  })
  .partial()
  .strict();
export type Fixtures = z.infer<typeof Fixtures>;
/** The fixtures that name a state by its id. */
export type IdFixture = Exclude<keyof Fixtures, 'test_cards'>;

export const PROFILES = ['sandbox', 'staging'] as const;
export type Profile = (typeof PROFILES)[number];

/** A problem with what the run was given (options, files): reported in one line, exit 2. */
export class InputError extends Error {
  override name = 'InputError';
}

/** Reads and validates a fixtures file; the error names the path as given (callers pass it resolved). */
export function loadFixtures(file: string): Fixtures {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`--fixtures ${file} cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError(`--fixtures ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = Fixtures.safeParse(json);
  if (!parsed.success) throw new InputError(`--fixtures ${file} is not a fixtures file: ${parsed.error.issues.map((i) => `${formatIssuePath(i.path) || 'the file'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** What a profile cannot run without: the staging profile has no control API to make its own tenants. */
export function missingInputs(profile: Profile, inputs: { publicKey?: string | undefined; secretKey?: string | undefined; accountId?: string | undefined }): string[] {
  if (profile === 'sandbox') return [];
  return [
    ...(inputs.publicKey ? [] : ['--public-key']),
    ...(inputs.secretKey ? [] : ['--secret-key']),
    ...(inputs.accountId ? [] : ['--account-id']),
  ];
}

export const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Why the routes of the `/sandbox` control API are not checked in this run, or undefined when
 * they are (the sandbox profile, with the control API served by the server under test).
 */
export function controlApiExclusion(settings: { profile: Profile; baseUrl: string; controlUrl?: string | undefined }): string | undefined {
  if (settings.profile === 'staging') return 'the staging profile does not use the /sandbox control API';
  const control = withoutTrailingSlash(settings.controlUrl || settings.baseUrl);
  if (control !== withoutTrailingSlash(settings.baseUrl)) return `the control API answers at --control-url ${control}, not at the server under test`;
  return undefined;
}

/** What a staging run may send by default: a whole run with its money flows fits, at a pace a shared staging bears. */
export const STAGING_BUDGET = { maxRequests: 3000, ratePerSecond: 20 } as const;

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
  /** At most this many invalid bodies per route, a seeded pick (every one when unset: the sandbox profile's default). */
  maxNegative: number | undefined;
  /** The median time a route's answers may take, in ms (reported for every route). */
  latencyBudgetMs: number;
  /** At most this many requests, at most `ratePerSecond` per second (staging: 3000 at 20 per second unless set). */
  maxRequests: number;
  ratePerSecond: number;
  /** Where the run records its exchanges (masked), if anywhere. */
  recordFile: string | undefined;
}

/**
 * The suite reads its settings from CONFORMANCE_* variables (the CLI sets them, after checking
 * them; these checks repeat for a run started some other way). Not BASE_URL: vitest overwrites
 * that one.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ConformanceConfig {
  const baseUrl = env.CONFORMANCE_BASE_URL;
  if (!baseUrl) throw new InputError('CONFORMANCE_BASE_URL is required');
  const profile = env.CONFORMANCE_PROFILE ?? 'sandbox';
  if (!PROFILES.includes(profile as Profile)) throw new InputError(`CONFORMANCE_PROFILE must be sandbox or staging, got ${profile}`);
  const keys = { publicKey: env.CONFORMANCE_PUBLIC_KEY, secretKey: env.CONFORMANCE_SECRET_KEY, accountId: env.CONFORMANCE_ACCOUNT_ID };
  const missing = missingInputs(profile as Profile, keys);
  if (missing.length) throw new InputError(`the ${profile} profile needs ${missing.join(', ')}`);
  return {
    baseUrl: withoutTrailingSlash(baseUrl),
    controlUrl: withoutTrailingSlash(env.CONFORMANCE_CONTROL_URL || baseUrl),
    publicKey: keys.publicKey ?? '',
    secretKey: keys.secretKey ?? '',
    accountId: keys.accountId || undefined,
    profile: profile as Profile,
    fixtures: env.CONFORMANCE_FIXTURES ? loadFixtures(env.CONFORMANCE_FIXTURES) : {},
    seed: numberSetting('CONFORMANCE_SEED', env.CONFORMANCE_SEED ?? '1', 'a whole number ≥ 0', (n) => Number.isInteger(n) && n >= 0),
    maxNegative:
      env.CONFORMANCE_MAX_NEGATIVE !== undefined || profile === 'staging'
        ? numberSetting('CONFORMANCE_MAX_NEGATIVE', env.CONFORMANCE_MAX_NEGATIVE ?? '6', 'a whole number ≥ 0', (n) => Number.isInteger(n) && n >= 0)
        : undefined,
    latencyBudgetMs: numberSetting('CONFORMANCE_LATENCY_BUDGET_MS', env.CONFORMANCE_LATENCY_BUDGET_MS ?? '1000', 'a number above 0', (n) => n > 0),
    maxRequests: numberSetting('CONFORMANCE_MAX_REQUESTS', env.CONFORMANCE_MAX_REQUESTS ?? (profile === 'staging' ? String(STAGING_BUDGET.maxRequests) : '1000000'), 'a whole number ≥ 1', (n) => Number.isInteger(n) && n >= 1),
    recordFile: env.CONFORMANCE_RECORD || undefined,
    ratePerSecond: numberSetting('CONFORMANCE_RATE', env.CONFORMANCE_RATE ?? (profile === 'staging' ? String(STAGING_BUDGET.ratePerSecond) : '100000'), 'a number above 0', (n) => n > 0),
  };
}

/** A numeric setting, refused in one line rather than run with NaN, which every comparison lets through. */
function numberSetting(name: string, raw: string, expected: string, valid: (n: number) => boolean): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !valid(n)) throw new InputError(`${name} must be ${expected}, got "${raw}"`);
  return n;
}
