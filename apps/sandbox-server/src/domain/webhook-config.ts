import { DomainError } from './errors.js';
import type { WebhookState } from './webhook-routing.js';

/**
 * Upstream's rule (Manage Webhooks, `renewal_days` and the "Invalid renewal_days"
 * example): the days before a renewal only mean something when the webhook listens to
 * CLOSE_TO_RENEWAL. Checked on the configuration a create or an update would leave, so an update
 * that drops CLOSE_TO_RENEWAL but keeps the days is refused as well.
 */
export function checkRenewalDays(webhook: Pick<WebhookState, 'renewal_days' | 'subscription_triggers'>): void {
  if (webhook.renewal_days !== null && !(webhook.subscription_triggers ?? []).includes('CLOSE_TO_RENEWAL')) {
    throw new DomainError('WEBHOOK_INVALID_RENEWAL_DAYS', ['renewal_days is only valid when subscription_triggers contains CLOSE_TO_RENEWAL']);
  }
}
