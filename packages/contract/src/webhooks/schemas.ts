import { z } from 'zod';
import { DateTime, Uuid, text } from '../shared/primitives.js';
import { listOf } from '../validation.js';

export const ENROLLMENT_TRIGGERS = ['ENROLL', 'UNENROLL'] as const;
export const PAYMENT_TRIGGERS = ['AUTHORIZE', 'CANCEL', 'CAPTURE', 'CHARGEBACK', 'PRECHARGEBACK', 'PURCHASE', 'REFUND', 'VERIFY'] as const;
export const REPORT_TRIGGERS = ['CREATE', 'UPDATE'] as const;
export const SUBSCRIPTION_TRIGGERS = ['ACTIVE', 'CANCEL', 'CLOSE_TO_RENEWAL', 'COMPLETE', 'CREATE', 'PAUSE', 'RESUME'] as const;
export const ONBOARDING_TRIGGERS = [
  'BLOCKED', 'CANCELLED', 'CREATED', 'DECLINED', 'ERROR', 'EXPIRED', 'INACTIVE', 'PENDING', 'SUCCEEDED', 'TRANSFERRED', 'UNBLOCKED',
] as const;
export const WEBHOOK_STATES = ['ACTIVE', 'INACTIVE'] as const;

// Each trigger at most once: a list longer than the enum cannot be right.
const triggers = {
  enrollment_triggers: listOf(z.enum(ENROLLMENT_TRIGGERS), ENROLLMENT_TRIGGERS.length).optional(),
  payment_triggers: listOf(z.enum(PAYMENT_TRIGGERS), PAYMENT_TRIGGERS.length).optional(),
  report_triggers: listOf(z.enum(REPORT_TRIGGERS), REPORT_TRIGGERS.length).optional(),
  subscription_triggers: listOf(z.enum(SUBSCRIPTION_TRIGGERS), SUBSCRIPTION_TRIGGERS.length).optional(),
  onboarding_triggers: listOf(z.enum(ONBOARDING_TRIGGERS), ONBOARDING_TRIGGERS.length).optional(),
};

const WebhookUrl = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), { message: 'must be an http(s) URL' });

const credentials = {
  api_key: text(1, 255).optional(),
  secret: text(1, 255).optional(),
  hmac_client_secret: text(8, 255).optional(),
  oauth2_authentication_url: WebhookUrl.optional(),
  oauth2_client_id: text(1, 255).optional(),
  oauth2_client_secret: text(1, 255).optional(),
  oauth2_grant_type: text(1, 64).optional(),
  oauth2_scope: text(1, 255).optional(),
  oauth2_authorization_name: text(1, 255).optional(),
  oauth2_include_client_id: z.boolean().optional(),
};

/**
 * What a webhook delivers and how it authenticates: written once, taken whole by create and by
 * update (where every field is optional too).
 */
export const WebhookSettings = z.object({
  ...credentials,
  ...triggers,
  renewal_days: z.number().int().min(1).max(365).optional(),
});
export type WebhookSettings = z.infer<typeof WebhookSettings>;

/** The settings' trigger lists; an unknown trigger in one answers WEBHOOK_INVALID_TRIGGER (Manage Webhooks). */
export const TRIGGER_FIELDS = Object.keys(triggers) as Array<keyof typeof triggers>;

// The webhook's own fields first: a request breaking one of them and a trigger is told about them first.
export const CreateWebhookBody = z
  .object({
    account_id: Uuid,
    name: text(1, 255),
    url: WebhookUrl,
  })
  .merge(WebhookSettings);
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .object({
    account_id: Uuid,
    name: text(1, 255).optional(),
    state: z.enum(WEBHOOK_STATES).optional(),
    url: WebhookUrl.optional(),
  })
  .merge(WebhookSettings)
  .extend({ clear_renewal_days: z.boolean().optional() });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

const maskedSecret = z.string().nullable();

/** A webhook configuration as the API returns it: secrets masked as `***`. */
export const Webhook = z.object({
  id: z.string(),
  account_id: z.string(),
  name: z.string(),
  state: z.enum(WEBHOOK_STATES),
  url: z.string(),
  api_key: maskedSecret,
  secret: maskedSecret,
  hmac_client_secret: maskedSecret,
  oauth2_authentication_url: z.string().nullable(),
  oauth2_client_secret: maskedSecret,
  oauth2_client_id: z.string().nullable(),
  oauth2_grant_type: z.string().nullable(),
  oauth2_scope: z.string().nullable(),
  oauth2_authorization_name: z.string().nullable(),
  oauth2_include_client_id: z.boolean(),
  enrollment_triggers: z.array(z.string()).nullable(),
  payment_triggers: z.array(z.string()).nullable(),
  report_triggers: z.array(z.string()).nullable(),
  subscription_triggers: z.array(z.string()).nullable(),
  onboarding_triggers: z.array(z.string()).nullable(),
  renewal_days: z.number().int().nullable(),
  created_at: DateTime,
  updated_at: DateTime,
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookListQuery = z.object({
  account_id: Uuid,
  state: z.enum(WEBHOOK_STATES).optional(),
});
export const WebhookAccountQuery = z.object({ account_id: Uuid });
export const WebhookIdParams = z.object({ webhook_id: text(1, 64) });

/** Header carrying Base64(HMAC-SHA256(secret, raw body)). */
export const WEBHOOK_SIGNATURE_HEADER = 'x-hmac-signature';
