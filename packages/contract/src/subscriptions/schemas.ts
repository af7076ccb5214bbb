import { z } from 'zod';
import { IsoCountry } from '../shared/countries.js';
import { Amount, AmountOut, FreeableAmountValue } from '../shared/money.js';
import { DateTime, Id36To64, Uuid, text } from '../shared/primitives.js';
import { Availability, AvailabilityOut, MetadataOut, finishAfterStart, metadataList } from '../shared/shapes.js';
import { AdditionalData, AdditionalDataOut } from '../shared/additional-data.js';

export const SUBSCRIPTION_STATUSES = [
  'CREATED', 'ACTIVE', 'TRIALING', 'PAST_DUE', 'PAUSED', 'COMPLETED', 'CANCELED', 'ERROR',
] as const;
export const FREQUENCY_TYPES = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;

/** Request of POST /v1/subscriptions (supporting; modelled from upstream). */
export const CreateSubscriptionBody = z
  .object({
    name: text(1, 255),
    description: text(1, 255).optional(),
    account_id: Id36To64,
    merchant_reference: text(3, 255).optional(),
    soft_descriptor: text(1, 255).optional(),
    /** Any ISO 3166-1 country: upstream's Create Subscription does not limit it to the operating ones. */
    country: IsoCountry,
    amount: Amount,
    frequency: z
      .object({ type: z.enum(FREQUENCY_TYPES), value: z.number().int().min(1).max(365).default(1) })
      .optional(),
    billing_cycles: z.object({ total: z.number().int().min(1).optional() }).optional(),
    customer_payer: z.object({ id: Uuid }).optional(),
    payment_method: z.object({
      type: z.enum(['CARD']).or(text(3, 255).regex(/^[A-Z][A-Z0-9_]*_ENROLLMENT$/, 'must be CARD or <BRAND>_ENROLLMENT')),
      vaulted_token: text(1, 64),
    }),
    /** A trial may be free: upstream's example charges `value: 0` during it. */
    // "If not set, defaults to 1 (MIN 1)" (Create Subscription, trial_period.billing_cycles); the spec is silent.
    trial_period: z.object({ billing_cycles: z.number().int().min(1).default(1), amount: Amount.extend({ value: FreeableAmountValue }).optional() }).optional(),
    availability: Availability.optional(),
    metadata: metadataList(50).optional(),
    additional_data: AdditionalData.optional(),
    retries: z
      .object({ retry_on_decline: z.boolean().optional(), amount: z.number().int().min(0).max(10).optional() })
      .optional(),
    initial_payment_validation: z.boolean().optional(),
  })
  .superRefine(finishAfterStart);
export type CreateSubscriptionBody = z.input<typeof CreateSubscriptionBody>;

/**
 * Subscription, §2.10, with what upstream adds (docs/fidelity.md): the `soft_descriptor` sent
 * (`""` when none) and the `subscription_agreement_id` issued at creation. `description` and
 * `merchant_reference` are strings (§2.10 and Create Subscription), `""` when not sent, and
 * so is `billing_cycles.next_at` once the last cycle is paid (§2.10 "date-time", upstream a string;
 * neither nullable). `customer_payer`, `trial_period` and a trial's `amount` are objects (§2.10,
 * none nullable; Create Subscription types them objects): one the request did not send is
 * left out, never `null` (docs/fidelity.md, "Absent values"). Upstream's plan fields (`plan_id`,
 * `plan_assigned_at`, `current_phase`, `billing_phases`, `previous_subscription_id`) are "only
 * present on plan-linked subscriptions" (Create Subscription), which the sandbox does not
 * create, so they never appear.
 */
export const Subscription = z.object({
  id: Uuid,
  name: z.string(),
  account_id: z.string(),
  country: z.string(),
  description: z.string(),
  merchant_reference: z.string(),
  soft_descriptor: z.string(),
  subscription_agreement_id: z.string().startsWith('sa_'),
  status: z.string(),
  amount: AmountOut,
  frequency: z.object({ type: z.string(), value: z.number().int() }),
  billing_cycles: z.object({
    total: z.number().int().nullable(),
    current: z.number().int(),
    next_at: z.string(),
  }),
  customer_payer: z.object({ id: z.string() }).optional(),
  payment_method: z.object({ type: z.string(), vaulted_token: z.string() }),
  availability: AvailabilityOut,
  retries: z.object({ retry_on_decline: z.boolean(), amount: z.number().int() }),
  metadata: MetadataOut.nullable(),
  additional_data: AdditionalDataOut.nullable(),
  trial_period: z.object({ billing_cycles: z.number().int(), amount: AmountOut.optional() }).optional(),
  initial_payment_validation: z.boolean(),
  created_at: DateTime,
  updated_at: DateTime,
});
export type Subscription = z.infer<typeof Subscription>;

export const SubscriptionIdParams = z.object({ id: Uuid });
