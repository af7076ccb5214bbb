import { z } from 'zod';
import { Amount, AmountOut, AmountValue } from '../shared/money.js';
import { DateTime, Uuid, text } from '../shared/primitives.js';
import { listOf, queryInteger } from '../validation.js';
import { WEBHOOK_ATTEMPT_CHAOS, WebhookDeliveryChaos } from './webhook-chaos.js';

export const CreateMerchantBody = z.object({
  name: text(1, 255).optional(),
  /** How many account ids the merchant owns (default 1). */
  accounts: z.number().int().min(1).max(10).optional(),
});
export type CreateMerchantBody = z.infer<typeof CreateMerchantBody>;

/**
 * A sandbox merchant (tenant): its key pair and the account ids it owns. Answered when the
 * merchant is created and when its secret key is rotated: the only two places the secret key is
 * ever shown (the sandbox keeps a digest of it).
 */
export const SandboxMerchant = z.object({
  id: z.string(),
  name: z.string(),
  public_api_key: z.string(),
  private_secret_key: z.string(),
  account_ids: z.array(Uuid),
  created_at: DateTime,
});
export type SandboxMerchant = z.infer<typeof SandboxMerchant>;

export const SandboxClock = z.object({
  now: DateTime,
  offset_seconds: z.number().int(),
  frozen: z.boolean(),
});
export type SandboxClock = z.infer<typeof SandboxClock>;

/**
 * The most one `POST /sandbox/clock/advance` moves a clock: 10 years of 365 days. A longer
 * advance is a 400; the sandbox runs everything that falls due in the span, in bounded batches.
 */
export const MAX_CLOCK_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

export const AdvanceClockBody = z.object({
  seconds: z.number().int().min(1).max(MAX_CLOCK_ADVANCE_SECONDS),
});

export const SandboxEvent = z.object({
  id: z.string(),
  type: z.string(),
  resource_type: z.string(),
  resource_id: z.string(),
  account_id: z.string().nullable(),
  created_at: DateTime,
  data: z.record(z.string(), z.unknown()),
});
export type SandboxEvent = z.infer<typeof SandboxEvent>;

export const ListEventsQuery = z.object({
  type: text(1, 100).optional(),
  resource_id: text(1, 100).optional(),
  limit: queryInteger(1, 1000).optional(),
});

export const ChargebackBody = z.object({
  /** Major units; without it the whole captured and not refunded amount is charged back. */
  amount: AmountValue.optional(),
  reason: text(1, 255).optional(),
});

export const DisputeOutcomeBody = z.object({
  outcome: z.enum(['WON', 'LOST']),
});

/** The SDK step of a session enrollment (what the customer types into the SDK). */
export const CompleteEnrollmentBody = z.object({
  card: z
    .object({
      number: z.string().regex(/^\d{8,19}$/, 'must be 8 to 19 digits'),
      expiration_month: z.number().int().min(1).max(12),
      expiration_year: z.number().int().min(0).max(9999),
      security_code: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits').optional(),
      holder_name: text(3, 26).optional(),
    })
    .optional(),
});
export const CompleteEnrollmentParams = z.object({ customer_session: Uuid, payment_method_id: Uuid });

/** Outcomes a scripted charge can take: SUCCEEDED, DECLINED (by the bank), ERROR, or a decline code. */
export const SCRIPTED_OUTCOMES = [
  'SUCCEEDED', 'DECLINED', 'ERROR', 'INSUFFICIENT_FUNDS', 'DECLINED_BY_BANK', 'DO_NOT_HONOR', 'INVALID_SECURITY_CODE',
  'INVALID_CARD_DATA', 'REPORTED_STOLEN', 'EXPIRED_CARD',
] as const;
export const ScriptOutcomesBody = z.object({ sequence: listOf(z.enum(SCRIPTED_OUTCOMES), 100).min(1) });
export const ScriptOutcomesParams = z.object({ vaulted_token: text(1, 64) });
export const ScriptedOutcomes = z.object({ vaulted_token: z.string(), pending: z.array(z.enum(SCRIPTED_OUTCOMES)) });

export const ONBOARDING_OUTCOMES = [
  'PENDING_ADDITIONAL_DOCUMENTATION', 'UNDER_REVIEW', 'SUCCEEDED', 'FAILED', 'DECLINED', 'CANCELLED', 'EXPIRED',
] as const;
export const OnboardingOutcomeBody = z.object({ status: z.enum(ONBOARDING_OUTCOMES) });
export const OnboardingOutcomeParams = z.object({ onboarding_id: text(1, 64) });

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

/** One POST to a merchant's webhook URL, with the exact bytes sent. */
export const WebhookAttempt = z.object({
  retry: z.number().int().min(0),
  /** Sandbox time of the attempt. */
  at: DateTime,
  status_code: z.number().int().nullable(),
  duration_ms: z.number().min(0),
  error: z.string().nullable(),
  request_body: z.string(),
  signature: z.string(),
  /** The webhook chaos effect that decided this attempt's outcome (docs/webhooks.md, "Webhook chaos"); null when none did. */
  chaos: z.enum(WEBHOOK_ATTEMPT_CHAOS).nullable().optional(),
});

export const WebhookDelivery = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  webhook_id: z.string(),
  url: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  idempotency_key: z.string(),
  attempts: z.array(WebhookAttempt),
  next_attempt_at: z.string().nullable(),
  created_at: DateTime,
  /** The webhook chaos rule that picked this delivery and its effect; null when none did. */
  chaos: WebhookDeliveryChaos.nullable().optional(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const ListDeliveriesQuery = z.object({
  event_type: text(1, 100).optional(),
  webhook_id: text(1, 64).optional(),
  state: z.enum(WEBHOOK_DELIVERY_STATES).optional(),
  limit: queryInteger(1, 1000).optional(),
});
export const DeliveryParams = z.object({ delivery_id: text(1, 64) });

export const ResetResult = z.object({ deleted: z.number().int().min(0) });
export const SandboxPaymentParams = z.object({ payment_id: Uuid });

export const RecipientBalanceParams = z.object({ recipient_id: Uuid });

/** Funds added to a recipient's transfer balance (sandbox test money). */
export const FundBalanceBody = z.object({ amount: Amount });

/**
 * What the marketplace holds for a recipient, per currency: what standalone transfers to it are
 * paid from. Captured split payments and the sandbox's fund route add to it, a transfer takes from
 * it and a reversal gives back (docs/sandbox-payments.md, "Marketplace transfers").
 */
export const RecipientBalance = z.object({
  recipient_id: Uuid,
  account_id: z.string(),
  balances: z.array(AmountOut),
});
export type RecipientBalance = z.infer<typeof RecipientBalance>;
