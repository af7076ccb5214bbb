import { z } from 'zod';
import { AmountValue } from '../shared/money.js';
import { DateTime, Uuid, text } from '../shared/primitives.js';

export const CreateMerchantBody = z.object({
  name: text(1, 255).optional(),
  /** How many account ids the merchant owns (default 1). */
  accounts: z.number().int().min(1).max(10).optional(),
});
export type CreateMerchantBody = z.infer<typeof CreateMerchantBody>;

/** A sandbox merchant (tenant): its key pair and the account ids it owns. */
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

export const AdvanceClockBody = z.object({
  seconds: z.number().int().min(1).max(10 * 365 * 24 * 3600),
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
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

export const ChargebackBody = z.object({
  /** Major units; without it the whole captured and not refunded amount is charged back. */
  amount: AmountValue.optional(),
  reason: text(1, 255).optional(),
});

export const DisputeOutcomeBody = z.object({
  outcome: z.enum(['WON', 'LOST']),
});

export const ResetResult = z.object({ deleted: z.number().int().min(0) });
export const SandboxPaymentParams = z.object({ payment_id: Uuid });
