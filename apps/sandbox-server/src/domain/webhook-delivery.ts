/** A delivery of one event to one webhook, with every attempt (the outbox record). */
export interface DeliveryState {
  id: string;
  event_id: string;
  event_type: string;
  webhook_id: string;
  url: string;
  account_id: string;
  state: 'pending' | 'delivered' | 'failed';
  idempotency_key: string;
  /** The envelope without `retry`, which each attempt sets. */
  envelope: Record<string, unknown>;
  attempts: {
    retry: number;
    at: string;
    status_code: number | null;
    duration_ms: number;
    error: string | null;
    request_body: string;
    signature: string;
  }[];
  /** Sandbox time of the next attempt; null when nothing is left to send. */
  next_attempt_at: string | null;
  /** Real time until which an attempt is in flight (so two dispatchers never send it twice). */
  claimed_until_ms: number | null;
  created_at: string;
}
