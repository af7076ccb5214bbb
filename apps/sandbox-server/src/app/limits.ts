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
}

export const DEFAULT_LIMITS: TenantLimits = {
  webhooksPerAccount: 25,
  merchantsPerHour: 600,
  merchantsTotal: 10_000,
};
