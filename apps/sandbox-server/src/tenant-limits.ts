/**
 * What one tenant may hold, so that none can exhaust the sandbox for the others (docs/security.md).
 * Set by the operator (`SANDBOX_MAX_*`); use cases read them from the request's context.
 */
export interface TenantLimits {
  /** Webhooks one account may have; upstream documents no limit, so the sandbox picks one. */
  webhooksPerAccount: number;
  /** Merchants `POST /sandbox/merchants` may create in any hour, over every caller. */
  merchantsPerHour: number;
  /** Merchants the store may hold in all before `POST /sandbox/merchants` refuses more. */
  merchantsTotal: number;
  /**
   * The most subscription charges one billing run makes (one step of a clock advance, one read):
   * what is still due after it is charged by the next run, so no record, however it was made, can
   * keep a request billing without end. A step of an advance covers 30 days, in which the API's
   * shortest frequency (a day) makes 31 cycles a subscription.
   */
  chargesPerRun: number;
}

export const DEFAULT_LIMITS: TenantLimits = {
  webhooksPerAccount: 25,
  merchantsPerHour: 3_600,
  merchantsTotal: 10_000,
  chargesPerRun: 5_000,
};
