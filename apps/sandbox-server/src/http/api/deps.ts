import type { ClockAdvancer } from '../../app/clock-advance.js';
import type { TenantLimits } from '../../tenant-limits.js';
import type { MerchantQuota } from '../../app/merchant-quota.js';
import type { BaseClock } from '../../runtime/clock.js';
import type { IdFactory } from '../../runtime/ids.js';
import type { Store } from '../../store/types.js';
import type { WebhookDispatcher } from '../../webhooks/dispatcher.js';
import type { RequestJournal } from '../journal/journal.js';

/** What the HTTP layer is built from. */
export interface HttpDeps {
  store: Store;
  clock: BaseClock;
  ids: IdFactory;
  /** The public base URL, known only once the server listens (port 0 picks one). */
  baseUrl: () => string;
  /** Upper bound for the `x-sandbox-provider-latency-ms` header. */
  maxProviderLatencyMs: number;
  dispatcher: WebhookDispatcher;
  clockAdvancer: ClockAdvancer;
  /** This process's request journal (`GET /sandbox/requests`). */
  journal: RequestJournal;
  /** What one tenant may hold (docs/security.md). */
  limits: TenantLimits;
  /** What `POST /sandbox/merchants` may still create. */
  merchantQuota: MerchantQuota;
}

export const PROVIDER_LATENCY_HEADER = 'x-sandbox-provider-latency-ms';
export const REPLAYED_HEADER = 'idempotent-replayed';
