import { describe, expect, it } from 'vitest';
import { answers, fixtures } from '../fixtures/index.js';
import { expectAccepted, expectRejectedAt, set, type Rule } from '../test-support/rules.js';
import { CreateSubscriptionBody, Subscription, SubscriptionIdParams } from './schemas.js';
import { subscriptionsContract } from './routes.js';

describe('CreateSubscriptionBody (supporting)', () => {
  it('accepts a monthly card subscription', () => expectAccepted(CreateSubscriptionBody, fixtures.createSubscription()));
  // Upstream's Create Subscription takes any ISO 3166-1 country ("MAX 2; MIN 2; ISO 3166-1").
  it('accepts a country outside the 17 operating ones (Create Subscription, country)', () =>
    expectAccepted(CreateSubscriptionBody, set(fixtures.createSubscription(), ['country'], 'IT')));
  // A free trial; Create Subscription's example sends trial_period.amount.value 0.
  it('accepts a free trial (Create Subscription, trial_period.amount.value 0)', () =>
    expectAccepted(CreateSubscriptionBody, set(fixtures.createSubscription(), ['trial_period'], { billing_cycles: 1, amount: { currency: 'ARS', value: 0 } })));
  // Create Subscription: trial_period.billing_cycles "If not set, defaults to 1 (MIN 1)".
  it('takes a trial without billing_cycles as one cycle (Create Subscription, trial_period.billing_cycles)', () => {
    const body = set(fixtures.createSubscription(), ['trial_period'], { amount: { currency: 'ARS', value: 0 } });
    expectAccepted(CreateSubscriptionBody, body);
    expect(CreateSubscriptionBody.parse(body).trial_period?.billing_cycles).toBe(1);
  });
  const rules: Rule<ReturnType<typeof fixtures.createSubscription>>[] = [
    { name: 'name is required', mutate: (b) => set(b, ['name'], undefined), path: 'name' },
    { name: 'amount is required', mutate: (b) => set(b, ['amount'], undefined), path: 'amount' },
    { name: 'payment_method.vaulted_token is required', mutate: (b) => set(b, ['payment_method'], { type: 'CARD' }), path: 'payment_method.vaulted_token' },
    { name: 'frequency type is an enum', mutate: (b) => set(b, ['frequency'], { type: 'FORTNIGHT', value: 1 }), path: 'frequency.type' },
    { name: 'frequency value is at least 1', mutate: (b) => set(b, ['frequency'], { type: 'MONTH', value: 0 }), path: 'frequency.value' },
    { name: 'country is an ISO 3166-1 code', mutate: (b) => set(b, ['country'], 'XX'), path: 'country' },
    { name: 'amount value is positive', mutate: (b) => set(b, ['amount', 'value'], 0), path: 'amount.value' },
    { name: 'trial billing_cycles is at least 1', mutate: (b) => set(b, ['trial_period'], { billing_cycles: 0 }), path: 'trial_period.billing_cycles' },
    { name: 'trial amount value is not negative', mutate: (b) => set(b, ['trial_period'], { billing_cycles: 1, amount: { currency: 'ARS', value: -1 } }), path: 'trial_period.amount.value' },
    {
      name: 'availability ends after it starts',
      mutate: (b) => set(b, ['availability'], { start_at: '2026-05-01T00:00:00Z', finish_at: '2026-04-01T00:00:00Z' }),
      path: 'availability.finish_at',
    },
  ];
  it.each(rules)('rejects: $name', ({ mutate, path }) => expectRejectedAt(CreateSubscriptionBody, mutate(fixtures.createSubscription()), path));
});

// §2.10 marks only metadata, additional_data and availability.finish_at nullable; customer_payer
// and trial_period (with its amount) are objects and next_at a date-time (docs/fidelity.md, "Absent values").
describe('Subscription (the answer, §2.10)', () => {
  const answered = answers.subscription;
  it('accepts one without customer_payer and trial_period (not sent)', () => expectAccepted(Subscription, answered()));
  it('accepts both when sent, and a trial without an amount', () => {
    expectAccepted(Subscription, { ...answered(), customer_payer: { id: 'a1d3b664-e32a-4508-9da1-9ede3e62a60c' }, trial_period: { billing_cycles: 1, amount: { currency: 'ARS', value: 0 } } });
    expectAccepted(Subscription, { ...answered(), trial_period: { billing_cycles: 2 } });
  });
  it('accepts a completed one with next_at ""', () => expectAccepted(Subscription, set(answered(), ['billing_cycles', 'next_at'], '')));
  it.each([
    ['customer_payer', { ...answered(), customer_payer: null }, 'customer_payer'],
    ['trial_period', { ...answered(), trial_period: null }, 'trial_period'],
    ['trial_period.amount', { ...answered(), trial_period: { billing_cycles: 1, amount: null } }, 'trial_period.amount'],
    ['billing_cycles.next_at', set(answered(), ['billing_cycles', 'next_at'], null), 'billing_cycles.next_at'],
  ])('refuses a null %s', (_field, body, path) => expectRejectedAt(Subscription, body, path));
});

describe('retry (§4.13)', () => {
  it('takes a UUID subscription id', () => expectRejectedAt(SubscriptionIdParams, { id: 'sub_1' }, 'id'));
  it('accepts an optional UUID x-account-code header', () => {
    const headers = subscriptionsContract.retry.headers;
    expectAccepted(headers, { 'public-api-key': 'k', 'private-secret-key': 's' });
    expectAccepted(headers, { 'public-api-key': 'k', 'private-secret-key': 's', 'x-account-code': '6a1e7c2b-93f4-4d8e-b1a0-5c2f9e7d3b14' });
    expectRejectedAt(headers, { 'public-api-key': 'k', 'private-secret-key': 's', 'x-account-code': 'acct' }, 'x-account-code');
  });
});
