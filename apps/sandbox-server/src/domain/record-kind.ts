/** Kinds of records a merchant owns: what the store keeps, and what the clock's due work is about (`dueOf`). */
export type RecordKind =
  | 'customer'
  | 'customer_session'
  | 'checkout_session'
  | 'payment_link'
  | 'payment'
  /** A payer page code of a payment waiting for its payer (`/pay/{code}`). */
  | 'payer_page'
  | 'payment_method'
  | 'subscription'
  | 'recipient'
  | 'transfer'
  | 'balance'
  | 'banking_entity'
  | 'banking_onboarding'
  | 'banking_account'
  | 'webhook'
  | 'webhook_delivery'
  | 'event'
  | 'idempotency'
  /** A fault injection rule (`/sandbox/faults`), with its counters and rate-limit buckets. */
  | 'fault_rule'
  /** A webhook chaos rule (`/sandbox/webhook-chaos`), with its PRNG state and the deliveries it holds. */
  | 'webhook_chaos';
