import { describe, expect, it } from 'vitest';
import { checkRenewalDays } from './webhook-config.js';

// Upstream: Manage Webhooks, InvalidCreateRequest "Invalid renewal_days".
describe('checkRenewalDays', () => {
  it('accepts renewal days with CLOSE_TO_RENEWAL, and no days at all', () => {
    expect(() => checkRenewalDays({ renewal_days: 3, subscription_triggers: ['CREATE', 'CLOSE_TO_RENEWAL'] })).not.toThrow();
    expect(() => checkRenewalDays({ renewal_days: null, subscription_triggers: null })).not.toThrow();
  });

  it('refuses renewal days without CLOSE_TO_RENEWAL with WEBHOOK_INVALID_RENEWAL_DAYS', () => {
    for (const subscription_triggers of [null, ['CREATE']]) {
      expect(() => checkRenewalDays({ renewal_days: 3, subscription_triggers })).toThrow(expect.objectContaining({ code: 'WEBHOOK_INVALID_RENEWAL_DAYS' }));
    }
  });
});
