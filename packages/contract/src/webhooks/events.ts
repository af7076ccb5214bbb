import { z } from 'zod';
import { refuse } from '../shared/primitives.js';
import { Payment } from '../payments/schemas.js';
import { DirectEnrolledPaymentMethod, SessionEnrolledPaymentMethod } from '../payment-methods/schemas.js';
import { Subscription } from '../subscriptions/schemas.js';
import { Transfer } from '../marketplace/schemas.js';
import { BankingAccount, BankingEntity, BankingOnboarding } from '../banking/schemas.js';

/** `data.idempotency_key` is the same on every retry of one event: the receiver's de-duplication key. */
const withKey = <T extends z.ZodRawShape>(shape: T) => z.object({ ...shape, idempotency_key: z.string() });

function envelope<TType extends string, TEvent extends string, TData extends z.ZodTypeAny>(type: TType, typeEvent: TEvent, data: TData) {
  return z.object({
    type: z.literal(type),
    type_event: z.literal(typeEvent),
    account_id: z.string(),
    /** 0 on the first attempt, then 1, 2, ... on each retry. */
    retry: z.number().int().min(0),
    version: z.literal(2),
    data,
  });
}

/** Split transfers use their own envelope (upstream): the event name is short and the transfer id is on top. */
function transferEnvelope<TType extends string, TEvent extends string>(type: TType, typeEvent: TEvent) {
  return z.object({
    type: z.literal(type),
    type_event: z.literal(typeEvent),
    transfer_id: z.string(),
    account_id: z.string(),
    retry: z.number().int().min(0),
    version: z.literal(1),
    data: Transfer.extend({ idempotency_key: z.string() }),
  });
}

const paymentData = withKey({ payment: Payment });
const enrollmentData = withKey({ payment_method: z.union([DirectEnrolledPaymentMethod, SessionEnrolledPaymentMethod]) });
const subscriptionData = withKey({ subscription: Subscription });

export const PAYMENT_EVENTS = ['payment.purchase', 'payment.authorize', 'payment.capture', 'payment.refund', 'payment.cancel', 'payment.chargeback'] as const;
export const ENROLLMENT_EVENTS = ['enrollment.enroll', 'enrollment.unenroll'] as const;
export const SUBSCRIPTION_EVENTS = ['subscription.create', 'subscription.active', 'subscription.past_due', 'subscription.cycle_executed', 'subscription.cancel', 'subscription.complete'] as const;
export const ONBOARDING_EVENTS = ['banking.onboarding.created', 'banking.onboarding.pending', 'banking.onboarding.succeeded', 'banking.onboarding.failed', 'banking.onboarding.declined'] as const;
export const ACCOUNT_EVENTS = ['banking.account.created', 'banking.account.updated'] as const;

/** Every event the sandbox delivers, by `type_event` (split transfers: by `type` and `type_event`). */
export const WEBHOOK_EVENT_SCHEMAS = {
  ...Object.fromEntries(PAYMENT_EVENTS.map((e) => [e, envelope('payment', e, paymentData)])),
  ...Object.fromEntries(ENROLLMENT_EVENTS.map((e) => [e, envelope('enrollment', e, enrollmentData)])),
  ...Object.fromEntries(SUBSCRIPTION_EVENTS.map((e) => [e, envelope('subscription', e, subscriptionData)])),
  'banking.entity.created': envelope('banking.entity', 'banking.entity.created', withKey({ entity: BankingEntity })),
  ...Object.fromEntries(ONBOARDING_EVENTS.map((e) => [e, envelope('banking.onboarding', e, withKey({ onboarding: BankingOnboarding }))])),
  ...Object.fromEntries(ACCOUNT_EVENTS.map((e) => [e, envelope('banking.account', e, withKey({ account: BankingAccount }))])),
  'split_transfer.succeeded': transferEnvelope('split_transfer', 'succeeded'),
  'split_transfer.failed': transferEnvelope('split_transfer', 'failed'),
  'split_transfer_reverse.succeeded': transferEnvelope('split_transfer_reverse', 'succeeded'),
  'split_transfer_reverse.failed': transferEnvelope('split_transfer_reverse', 'failed'),
} as Record<string, z.ZodTypeAny>;

type Envelope<TType extends string, TEvent extends string, TData> = {
  type: TType;
  type_event: TEvent;
  account_id: string;
  retry: number;
  version: 2;
  data: TData & { idempotency_key: string };
};
type TransferEnvelope<TType extends string, TEvent extends string> = {
  type: TType;
  type_event: TEvent;
  transfer_id: string;
  account_id: string;
  retry: number;
  version: 1;
  data: z.infer<typeof Transfer> & { idempotency_key: string };
};

/** The typed union of every delivered event: narrow on `type_event` (and `type` for split transfers). */
export type WebhookEvent =
  | Envelope<'payment', (typeof PAYMENT_EVENTS)[number], { payment: z.infer<typeof Payment> }>
  | Envelope<'enrollment', (typeof ENROLLMENT_EVENTS)[number], { payment_method: z.infer<typeof DirectEnrolledPaymentMethod> | z.infer<typeof SessionEnrolledPaymentMethod> }>
  | Envelope<'subscription', (typeof SUBSCRIPTION_EVENTS)[number], { subscription: z.infer<typeof Subscription> }>
  | Envelope<'banking.entity', 'banking.entity.created', { entity: z.infer<typeof BankingEntity> }>
  | Envelope<'banking.onboarding', (typeof ONBOARDING_EVENTS)[number], { onboarding: z.infer<typeof BankingOnboarding> }>
  | Envelope<'banking.account', (typeof ACCOUNT_EVENTS)[number], { account: z.infer<typeof BankingAccount> }>
  | TransferEnvelope<'split_transfer' | 'split_transfer_reverse', 'succeeded' | 'failed'>;

/** Any delivered event: the union of WEBHOOK_EVENT_SCHEMAS, parsed by the schema its name selects. */
export const WebhookEvent: z.ZodType<WebhookEvent> = z
  .object({ type: z.string(), type_event: z.string() })
  .passthrough()
  .superRefine((value, ctx) => {
    const schema = WEBHOOK_EVENT_SCHEMAS[eventKey(value)];
    if (!schema) {
      refuse(ctx, ['type_event'], `unknown event ${value.type}/${value.type_event}`);
      return;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue(issue);
  }) as unknown as z.ZodType<WebhookEvent>;

/** The catalogue key of an envelope: `type_event`, or `type.type_event` for split transfers. */
export function eventKey(e: { type: string; type_event: string }): string {
  return e.type.startsWith('split_transfer') ? `${e.type}.${e.type_event}` : e.type_event;
}
