import { DomainError } from '../domain/errors.js';
import type { Store } from '../store/types.js';
import type { TenantLimits } from '../tenant-limits.js';

const HOUR_MS = 3600_000;

/**
 * What `POST /sandbox/merchants` may still create: at most `merchantsPerHour` in any hour (in this
 * process), and never past `merchantsTotal` held by the store. Each merchant is memory on the
 * memory store and rows on PostgreSQL; without a bound, one caller created 1,080 a second.
 */
export class MerchantQuota {
  /** When each of the last hour's creations happened (real time), oldest first; never more than the hourly bound. */
  private readonly recent: number[] = [];

  constructor(
    private readonly limits: Pick<TenantLimits, 'merchantsPerHour' | 'merchantsTotal'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one creation, or refuses: 429 TOO_MANY_REQUESTS past the hourly bound, 400 INVALID_STATE past the total. */
  async take(store: Store): Promise<void> {
    const now = this.now();
    while (this.recent.length > 0 && (this.recent[0] as number) <= now - HOUR_MS) this.recent.shift();
    if (this.recent.length >= this.limits.merchantsPerHour) {
      const retryInS = Math.ceil(((this.recent[0] as number) + HOUR_MS - now) / 1000);
      throw new DomainError('TOO_MANY_REQUESTS', [`${this.limits.merchantsPerHour} merchants were created in the last hour, the most this sandbox creates in an hour (SANDBOX_MAX_MERCHANTS_PER_HOUR); try again in ${retryInS} s`]);
    }
    const held = (await store.listMerchantIds()).length;
    if (held >= this.limits.merchantsTotal) {
      throw new DomainError('INVALID_STATE', [`the sandbox holds ${held} merchants, the most it holds (SANDBOX_MAX_MERCHANTS); reuse one (POST /sandbox/reset empties it)`]);
    }
    this.recent.push(now);
  }
}
