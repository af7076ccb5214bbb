import type { BankingAccount, BankingOnboarding, CreateOnboardingBody } from '@switchyard/contract';
import { DomainError } from './errors.js';
import { event, type DomainEvent } from './events.js';

/**
 * Banking onboarding transitions (§4.4): PENDING while the provider decides (7 days at most, then
 * EXPIRED), settled by the provider's decision; SUCCEEDED opens the entity's account. Pure: ids and
 * times come in, the onboarding and the events to record come out, or a DomainError.
 */

/** Onboarding statuses after which nothing moves. */
export const FINAL_ONBOARDING_STATUSES = ['SUCCEEDED', 'FAILED', 'DECLINED', 'CANCELLED', 'EXPIRED'];

/**
 * How long a pending onboarding stays open before it expires. The spec is silent (§2.13 names
 * `expires_at` only); upstream's examples expire 7 days after creation
 * (Create Entity Onboarding (Banking Connectivity) and
 * Get Entity Onboarding Status (Banking Connectivity): created 2026-02-01T10:00:00Z, expires 2026-02-08T10:00:00Z).
 */
export const ONBOARDING_TTL_MS = 7 * 86400_000;

export function isOnboardingFinal(o: BankingOnboarding): boolean {
  return FINAL_ONBOARDING_STATUSES.includes(o.status);
}

export interface OnboardingChange {
  onboarding: BankingOnboarding;
  events: DomainEvent[];
}

/**
 * ONE_STEP submits everything and waits for the provider (PENDING, ONBOARDING_TTL_MS to decide);
 * PREVIOUSLY_ONBOARDED records an onboarding that already happened elsewhere: it succeeds at once,
 * without contacting the provider, and opens the account (`opensAccount`, then `accountOpened`).
 * Either way the answer carries a provider entity id and an expiry, which upstream types as
 * strings: PREVIOUSLY_ONBOARDED "generates an internal ID without contacting the provider"
 * (Create Entity Onboarding (Banking Connectivity), `onboarding_type`), and `expires_at` is stamped at creation and
 * kept after the onboarding settles (Get Entity Onboarding Status (Banking Connectivity), its SUCCEEDED example).
 */
export function startOnboarding(
  entityId: string,
  body: CreateOnboardingBody,
  stamp: { id: string; providerEntityId: () => string; now: Date },
): OnboardingChange & { opensAccount: boolean } {
  const previously = body.onboarding_type === 'PREVIOUSLY_ONBOARDED';
  const now = stamp.now.toISOString();
  const onboarding: BankingOnboarding = {
    id: stamp.id,
    entity_id: entityId,
    // Upstream echoes the merchant's account id here from the start, PENDING included (same files).
    service_account_id: body.account_id,
    service_connection_id: body.service_connection_id,
    provider: { entity_id: stamp.providerEntityId(), status: previously ? 'NOT_CONTACTED' : 'PENDING' },
    onboarding_type: body.onboarding_type,
    status: previously ? 'SUCCEEDED' : 'PENDING',
    requirements: [],
    created_at: now,
    updated_at: now,
    expires_at: new Date(stamp.now.getTime() + ONBOARDING_TTL_MS).toISOString(),
  };
  const events = [event('banking.onboarding.created', 'banking_onboarding', onboarding.id, body.account_id, { status: onboarding.status })];
  if (!previously) events.push(event('banking.onboarding.pending', 'banking_onboarding', onboarding.id, body.account_id, { status: onboarding.status }));
  return { onboarding, events, opensAccount: previously };
}

/** Only an onboarding still open takes the provider's decision. */
export function requireOpenOnboarding(o: BankingOnboarding): void {
  if (isOnboardingFinal(o)) throw new DomainError('INVALID_STATE', [`onboarding ${o.id} is ${o.status} and can no longer change`]);
}

/**
 * The provider's decision on an open onboarding (sandbox control API), for the entity of
 * `accountId`. PENDING_ADDITIONAL_DOCUMENTATION asks for a document; SUCCEEDED opens the
 * account (`opensAccount`, then `accountOpened`).
 */
export function settleOnboarding(o: BankingOnboarding, status: string, accountId: string, now: string): OnboardingChange & { opensAccount: boolean } {
  requireOpenOnboarding(o);
  const settled: BankingOnboarding = { ...o, status, provider: { ...o.provider, status }, updated_at: now };
  const onboarding: BankingOnboarding =
    status === 'PENDING_ADDITIONAL_DOCUMENTATION'
      ? { ...settled, requirements: [{ field: 'documentation', message: 'The provider asks for an additional identity document', status: 'PENDING' }] }
      : settled;
  return { onboarding, events: [event(`banking.onboarding.${status.toLowerCase()}`, 'banking_onboarding', o.id, accountId, { status })], opensAccount: status === 'SUCCEEDED' };
}

/** The onboarding once the account it opened exists (the account's event names the onboarding); a settled onboarding no longer expires, whatever its `expires_at` says. */
export function accountOpened(o: BankingOnboarding, account: BankingAccount): OnboardingChange {
  return {
    onboarding: o,
    events: [event('banking.account.created', 'banking_account', account.id, account.account_id, { onboarding_id: o.id })],
  };
}

/** An open onboarding past its expiry, EXPIRED as of `at` (its expiry). */
export function expireOnboarding(o: BankingOnboarding, at: string): OnboardingChange {
  return {
    onboarding: { ...o, status: 'EXPIRED', provider: { ...o.provider, status: 'EXPIRED' }, updated_at: at },
    events: [event('banking.onboarding.expired', 'banking_onboarding', o.id, null, { status: 'EXPIRED' })],
  };
}
