import { FREQUENCY_TYPES, SUBSCRIPTION_STATUSES, type Snapshot, type SnapshotRecord } from '@switchyard/contract';
import { z, type ZodTypeAny } from 'zod';
import { DomainError } from '../domain/errors.js';
import { MAX_ATTEMPTS } from '../domain/webhook-routing.js';
import type { RecordKind } from '../store/types.js';
import type { TenantLimits } from '../tenant-limits.js';

/**
 * What an imported record must be, beyond a JSON object: the rules the API holds its own writes to,
 * for the kinds the sandbox acts on by itself (the clock bills subscriptions, expires payments and
 * onboardings, sends deliveries to webhooks). A record the API could never have written (a
 * frequency of 0, a date that does not parse, an eighth attempt) would make that work run without
 * end or fail on every tick, for every tenant; it is refused with the field that breaks the rule.
 */
const isoTime = z.string().datetime({ offset: true });
const webAddress = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), { message: 'must be an http(s) URL' });
const count = z.number().int().min(0);

const StoredSubscription = z
  .object({
    status: z.enum(SUBSCRIPTION_STATUSES),
    // The API's own bounds (CreateSubscriptionBody): each cycle moves the schedule forward.
    frequency: z.object({ type: z.enum(FREQUENCY_TYPES), value: z.number().int().min(1).max(365) }),
    amount_units: count,
    billing_total: z.number().int().min(1).nullable(),
    billing_current: count,
    next_at: isoTime.nullable(),
    availability: z.object({ start_at: isoTime, finish_at: isoTime.nullable() }),
    retries: z.object({ retry_on_decline: z.boolean(), amount: z.number().int().min(0).max(10) }),
    trial: z.object({ billing_cycles: z.number().int().min(1), amount_units: count.nullable() }).nullable(),
  })
  .passthrough()
  .refine((s) => s.billing_total === null || s.billing_current <= s.billing_total, { message: 'billing_current is past billing_total', path: ['billing_current'] })
  .refine((s) => s.next_at === null || !['COMPLETED', 'CANCELED'].includes(s.status), { message: 'a completed or canceled subscription has no next_at', path: ['next_at'] });

const StoredWebhook = z
  .object({
    account_id: z.string(),
    url: webAddress,
    state: z.enum(['ACTIVE', 'INACTIVE']),
  })
  .passthrough();

const StoredDelivery = z
  .object({
    webhook_id: z.string(),
    url: webAddress,
    state: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.array(z.object({ at: isoTime }).passthrough()).max(MAX_ATTEMPTS),
    next_attempt_at: isoTime.nullable(),
    created_at: isoTime,
  })
  .passthrough()
  .refine((d) => d.state === 'pending' || d.next_attempt_at === null, { message: 'only a pending delivery has a next attempt', path: ['next_attempt_at'] });

const StoredOnboarding = z.object({ expires_at: isoTime }).passthrough();

const STORED: Partial<Record<RecordKind, ZodTypeAny>> = {
  subscription: StoredSubscription,
  webhook: StoredWebhook,
  webhook_delivery: StoredDelivery,
  banking_onboarding: StoredOnboarding,
};

const invalid = (message: string) => new DomainError('INVALID_PARAMETERS', [message]);

/**
 * Checks every record of a snapshot: its data names its own id, belongs to one of the snapshot's
 * accounts, and, for the kinds in `STORED`, keeps the API's rules; the webhooks per account stay
 * within the tenant's limit, and their URLs are destinations the sandbox allows.
 */
export function checkSnapshotRecords(snapshot: Snapshot, limits: TenantLimits, urlRefusal?: (url: string) => string | undefined): void {
  const accounts = new Set(snapshot.merchant.account_ids);
  const webhooksPerAccount = new Map<string, number>();
  /** Where each (kind, id) and (kind, unique key) was first seen: a second is refused, as the store would refuse it. */
  const seen = new Map<string, number>();
  const once = (what: string, key: string, i: number) => {
    const first = seen.get(key);
    if (first !== undefined) throw invalid(`records[${i}].${what} is also records[${first}]'s`);
    seen.set(key, i);
  };
  snapshot.records.forEach((record: SnapshotRecord, i) => {
    const data = record.data;
    once('id', `id\u001f${record.kind}\u001f${record.id}`, i);
    if (record.unique_key !== null) once('unique_key', `key\u001f${record.kind}\u001f${record.unique_key}`, i);
    if (typeof data.id === 'string' && data.id !== record.id) throw invalid(`records[${i}].data.id "${data.id}" is not the record's id "${record.id}"`);
    if (typeof data.account_id === 'string' && !accounts.has(data.account_id)) throw invalid(`records[${i}].data.account_id "${data.account_id}" is not one of merchant.account_ids`);
    const schema = STORED[record.kind as RecordKind];
    const checked = schema?.safeParse(data);
    if (checked && !checked.success) {
      const issue = checked.error.issues[0];
      throw invalid(`records[${i}].data.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'} (a ${record.kind} the API would not have written)`);
    }
    if (record.kind === 'webhook') {
      const refusal = urlRefusal?.(String(data.url));
      if (refusal) throw invalid(`records[${i}].data.url: ${refusal}`);
      const account = String(data.account_id);
      const n = (webhooksPerAccount.get(account) ?? 0) + 1;
      if (n > limits.webhooksPerAccount) throw invalid(`records[${i}]: account ${account} would have more than ${limits.webhooksPerAccount} webhooks, the most one account may have`);
      webhooksPerAccount.set(account, n);
    }
  });
}
