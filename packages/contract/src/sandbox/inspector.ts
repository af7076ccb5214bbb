import { z } from 'zod';
import { BankingAccount, BankingEntity, BankingOnboarding } from '../banking/schemas.js';
import { Customer } from '../customers/schemas.js';
import { Recipient, Transfer } from '../marketplace/schemas.js';
import { RetrievedPayment } from '../payments/schemas.js';
import { AmountOut } from '../shared/money.js';
import { DateTime } from '../shared/primitives.js';
import { Subscription } from '../subscriptions/schemas.js';
import { queryInteger } from '../validation.js';
import { SandboxMerchant } from './schemas.js';

/** The most records of each kind one overview answers: the page polls it, so every answer stays small. */
export const MAX_INSPECTOR_LIMIT = 100;
export const DEFAULT_INSPECTOR_LIMIT = 25;

export const InspectorOverviewQuery = z.object({
  limit: queryInteger(1, MAX_INSPECTOR_LIMIT).optional(),
});

/** The newest records of one kind, newest first, and how many the merchant has in all. */
const recent = <T extends z.ZodTypeAny>(item: T) => z.object({ total: z.number().int().min(0), items: z.array(item) });

/** One charge of a subscription's cycle: a payment like any other (its id retrieves it). */
export const InspectorCyclePayment = z.object({
  payment_id: z.string(),
  merchant_order_id: z.string(),
  status: z.string(),
  amount: AmountOut,
  created_at: DateTime,
});

/** A subscription as the API answers it, with the payments of its cycles, newest first. */
export const InspectorSubscription = z.object({
  subscription: Subscription,
  cycle_payments: z.array(InspectorCyclePayment),
});

/**
 * What the inspector page shows that the API has no list route for: the newest `limit` records of
 * each kind, each in the shape its own retrieve answers (payments with every transaction, refunds
 * included). Events and webhook deliveries have list routes of their own.
 */
export const InspectorOverview = z.object({
  /** Who the keys belong to, for the page to say who is signed in: never the keys themselves. */
  merchant: SandboxMerchant.pick({ id: true, name: true, account_ids: true }),
  limit: z.number().int().min(1),
  customers: recent(Customer),
  payments: recent(RetrievedPayment),
  subscriptions: recent(InspectorSubscription),
  recipients: recent(Recipient),
  transfers: recent(Transfer),
  banking_entities: recent(BankingEntity),
  banking_onboardings: recent(BankingOnboarding),
  banking_accounts: recent(BankingAccount),
});
export type InspectorOverview = z.infer<typeof InspectorOverview>;
