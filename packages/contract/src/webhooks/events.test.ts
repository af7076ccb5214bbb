import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_SCHEMAS, WebhookEvent, eventKey } from './events.js';

describe('webhook event catalogue', () => {
  it('covers every family the sandbox delivers', () => {
    expect(Object.keys(WEBHOOK_EVENT_SCHEMAS).sort()).toEqual(
      [
        'payment.purchase', 'payment.authorize', 'payment.capture', 'payment.refund', 'payment.cancel', 'payment.chargeback',
        'enrollment.enroll', 'enrollment.unenroll',
        'subscription.create', 'subscription.active', 'subscription.past_due', 'subscription.cycle_executed', 'subscription.cancel', 'subscription.complete',
        'split_transfer.succeeded', 'split_transfer.failed', 'split_transfer_reverse.succeeded', 'split_transfer_reverse.failed',
        'banking.entity.created',
        'banking.onboarding.created', 'banking.onboarding.pending', 'banking.onboarding.succeeded', 'banking.onboarding.failed', 'banking.onboarding.declined',
        'banking.account.created', 'banking.account.updated',
      ].sort(),
    );
  });

  it('keys split transfers by type and event, the others by type_event', () => {
    expect(eventKey({ type: 'split_transfer_reverse', type_event: 'succeeded' })).toBe('split_transfer_reverse.succeeded');
    expect(eventKey({ type: 'payment', type_event: 'payment.refund' })).toBe('payment.refund');
  });

  it('parses a complete event and rejects an unknown one or a wrong envelope', () => {
    const onboarding = {
      id: 'onb_1', entity_id: 'ent_1', service_account_id: null, provider: { entity_id: 'prv_ent_1', status: 'PENDING' }, onboarding_type: 'ONE_STEP',
      status: 'PENDING', requirements: [], created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', expires_at: '2026-01-08T00:00:00Z',
    };
    const event = { type: 'banking.onboarding', type_event: 'banking.onboarding.pending', account_id: 'a', retry: 0, version: 2, data: { onboarding, idempotency_key: 'e1' } };
    expect(WebhookEvent.safeParse(event).success).toBe(true);
    expect(WebhookEvent.safeParse({ ...event, type_event: 'banking.onboarding.teleported' }).success).toBe(false);
    expect(WebhookEvent.safeParse({ ...event, version: 1 }).success).toBe(false);
    expect(WebhookEvent.safeParse({ ...event, retry: -1 }).success).toBe(false);
  });
});
