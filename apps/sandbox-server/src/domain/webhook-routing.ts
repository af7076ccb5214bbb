import { WEBHOOK_DELIVERY_ATTEMPTS, WEBHOOK_EVENT_SCHEMAS } from '@switchyard/contract';

/** A webhook configuration as the sandbox keeps it (secrets in clear; the API shows them masked). */
export interface WebhookState {
  id: string;
  account_id: string;
  name: string;
  state: 'ACTIVE' | 'INACTIVE';
  url: string;
  api_key: string | null;
  secret: string | null;
  hmac_client_secret: string | null;
  oauth2_authentication_url: string | null;
  oauth2_client_id: string | null;
  oauth2_client_secret: string | null;
  oauth2_grant_type: string | null;
  oauth2_scope: string | null;
  oauth2_authorization_name: string | null;
  oauth2_include_client_id: boolean;
  enrollment_triggers: string[] | null;
  payment_triggers: string[] | null;
  report_triggers: string[] | null;
  subscription_triggers: string[] | null;
  onboarding_triggers: string[] | null;
  renewal_days: number | null;
  created_at: string;
  updated_at: string;
}

/** Upstream's schedule: 7 attempts (the contract's WEBHOOK_DELIVERY_ATTEMPTS), the first at once, each retry this long after the previous attempt. */
export const RETRY_DELAYS_MS = [5 * 60_000, 50 * 60_000, 6 * 3600_000, 24 * 3600_000, 48 * 3600_000, 96 * 3600_000];
export const MAX_ATTEMPTS = WEBHOOK_DELIVERY_ATTEMPTS;

/** The wait before the next attempt after `attemptsMade` attempts, or null when none is left. */
export function nextRetryDelayMs(attemptsMade: number, timeScale: number): number | null {
  const delay = RETRY_DELAYS_MS[attemptsMade - 1];
  return delay === undefined ? null : Math.round(delay * timeScale);
}

/** Whether the event is in the delivered catalogue. */
export function isDeliverable(eventType: string): boolean {
  return eventType in WEBHOOK_EVENT_SCHEMAS;
}

/** The trigger list and the trigger name that select an event, when its family has one. */
function triggerOf(eventType: string): { list: keyof WebhookState; name: string } | undefined {
  const [family, name = ''] = eventType.split('.');
  if (family === 'payment') return { list: 'payment_triggers', name: name.toUpperCase() };
  if (family === 'enrollment') return { list: 'enrollment_triggers', name: name.toUpperCase() };
  if (family === 'subscription' && ['create', 'active', 'cancel', 'complete'].includes(name)) return { list: 'subscription_triggers', name: name.toUpperCase() };
  if (eventType.startsWith('banking.onboarding.')) return { list: 'onboarding_triggers', name: eventType.slice('banking.onboarding.'.length).toUpperCase() };
  return undefined;
}

/**
 * An ACTIVE webhook of the event's account receives the event when its trigger list for the
 * event's family names it. Families the configuration has no trigger list for (split transfers,
 * banking entities and accounts, subscription past_due and cycle_executed) always go out.
 */
export function webhookWants(webhook: WebhookState, eventType: string, accountId: string | null): boolean {
  if (webhook.state !== 'ACTIVE' || webhook.account_id !== accountId || !isDeliverable(eventType)) return false;
  const trigger = triggerOf(eventType);
  if (!trigger) return true;
  const list = webhook[trigger.list] as string[] | null;
  return Array.isArray(list) && list.includes(trigger.name);
}

/** `{type, type_event, version}` of the envelope an event travels in (split transfers have their own). */
export function envelopeOf(eventType: string): { type: string; type_event: string; version: 1 | 2; transfer: boolean } {
  if (eventType.startsWith('split_transfer')) {
    const dot = eventType.lastIndexOf('.');
    return { type: eventType.slice(0, dot), type_event: eventType.slice(dot + 1), version: 1, transfer: true };
  }
  const type = eventType.startsWith('banking.') ? eventType.split('.').slice(0, 2).join('.') : (eventType.split('.')[0] as string);
  return { type, type_event: eventType, version: 2, transfer: false };
}
