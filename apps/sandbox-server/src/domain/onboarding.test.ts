import { describe, expect, it } from 'vitest';
import type { BankingAccount, CreateOnboardingBody } from '@switchyard/contract';
import { accountOpened, expireOnboarding, ONBOARDING_TTL_MS, settleOnboarding, startOnboarding } from './onboarding.js';

const NOW = new Date('2026-01-01T00:00:00.000Z');
const body = (onboarding_type: CreateOnboardingBody['onboarding_type']) => ({ account_id: 'acc', service_connection_id: 'conn', onboarding_type }) as CreateOnboardingBody;
const stamp = { id: 'onb_1', providerEntityId: () => 'prv_ent_1', now: NOW };

describe('startOnboarding', () => {
  it('waits for the provider until the TTL runs out', () => {
    const started = startOnboarding('ent_1', body('ONE_STEP'), stamp);
    expect(started.onboarding).toMatchObject({ status: 'PENDING', provider: { entity_id: 'prv_ent_1', status: 'PENDING' }, expires_at: new Date(NOW.getTime() + ONBOARDING_TTL_MS).toISOString() });
    expect(started.events.map((e) => e.type)).toEqual(['banking.onboarding.created', 'banking.onboarding.pending']);
    expect(started.opensAccount).toBe(false);
  });

  // Upstream: Create Entity Onboarding (Banking Connectivity), 201 example
  // (created 2026-02-01T10:00:00Z, expires 2026-02-08T10:00:00Z, the request's account id echoed).
  it("expires 7 days after creation and echoes the merchant's account id while PENDING", () => {
    const started = startOnboarding('ent_1', body('ONE_STEP'), stamp);
    expect(started.onboarding).toMatchObject({ service_account_id: 'acc', expires_at: '2026-01-08T00:00:00.000Z' });
  });

  // Upstream types `provider.entity_id` and `expires_at` as strings; its
  // `onboarding_type` description says PREVIOUSLY_ONBOARDED "generates an internal ID without
  // contacting the provider" (Create Entity Onboarding (Banking Connectivity)), and its SUCCEEDED example keeps the
  // creation-time expiry (Get Entity Onboarding Status (Banking Connectivity)).
  it('records a previous onboarding as SUCCEEDED at once, with an internal provider id and an expiry, and opens the account', () => {
    const started = startOnboarding('ent_1', body('PREVIOUSLY_ONBOARDED'), stamp);
    expect(started.onboarding).toMatchObject({ status: 'SUCCEEDED', provider: { entity_id: 'prv_ent_1', status: 'NOT_CONTACTED' }, expires_at: '2026-01-08T00:00:00.000Z' });
    expect(started.opensAccount).toBe(true);
  });
});

describe('settleOnboarding', () => {
  const pending = startOnboarding('ent_1', body('ONE_STEP'), stamp).onboarding;

  it("takes the provider's decision once; SUCCEEDED opens the account and keeps the expiry upstream keeps", () => {
    const settled = settleOnboarding(pending, 'SUCCEEDED', 'acc', 'later');
    expect(settled).toMatchObject({ onboarding: { status: 'SUCCEEDED', provider: { status: 'SUCCEEDED' }, updated_at: 'later' }, opensAccount: true });
    expect(settled.events).toEqual([expect.objectContaining({ type: 'banking.onboarding.succeeded', account_id: 'acc' })]);
    const opened = accountOpened(settled.onboarding, { id: 'acct_1', account_id: 'acc' } as BankingAccount);
    expect(opened.onboarding).toMatchObject({ service_account_id: 'acc', expires_at: '2026-01-08T00:00:00.000Z' });
    expect(opened.events).toEqual([expect.objectContaining({ type: 'banking.account.created', resource_id: 'acct_1' })]);
    expect(() => settleOnboarding(settled.onboarding, 'DECLINED', 'acc', 'later')).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
  });

  it('asks for a document on PENDING_ADDITIONAL_DOCUMENTATION', () => {
    const settled = settleOnboarding(pending, 'PENDING_ADDITIONAL_DOCUMENTATION', 'acc', 'later');
    expect(settled.onboarding.requirements).toEqual([expect.objectContaining({ field: 'documentation', status: 'PENDING' })]);
    expect(settled.opensAccount).toBe(false);
  });

  it('expires an open onboarding as of its expiry', () => {
    const expired = expireOnboarding(pending, 'then');
    expect(expired.onboarding).toMatchObject({ status: 'EXPIRED', provider: { status: 'EXPIRED' }, updated_at: 'then' });
    expect(expired.events.map((e) => e.type)).toEqual(['banking.onboarding.expired']);
  });
});
