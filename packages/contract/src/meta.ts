import type { ErrorCode } from './errors.js';

/** Metadata every route carries; the client, the sandbox and the conformance runner read it. */
export interface RouteMeta {
  /** Stable operation id, also used as the OpenAPI operationId. */
  operationId: string;
  /** The route needs `X-Idempotency-Key`. */
  idempotent: boolean;
  /** Referred to by the spec but not specified there: modelled from the upstream service. */
  supporting: boolean;
  /** Spec section (for example `4.2`), or `null` for supporting routes. */
  specSection: string | null;
  /** Domain tag used for grouping (OpenAPI tags, conformance report). */
  domain: Domain;
  /**
   * The error codes the route answers besides `COMMON_ERRORS` (its resources not found, its
   * conflicts, its refusals). Its responses declare the status `STATUS_OF` gives each
   * (`withDeclaredErrors`), so no status is written by hand.
   */
  errors: readonly ErrorCode[];
  /** Who may call the route: `merchant` (the default) needs the two API keys, `none` needs nothing. */
  auth?: RouteAuth;
  /**
   * Body fields whose invalid value upstream answers with a code of its own (webhook triggers:
   * WEBHOOK_INVALID_TRIGGER; a transfer's currency), by field path, dotted for a nested field
   * (`amount.currency`). A request whose first invalid field is one of these, or inside one, gets
   * that code; any other invalid request gets the family's validation code.
   */
  bodyFieldCodes?: Readonly<Record<string, ErrorCode>>;
  /** The code of any other invalid request, where the family documents its own (webhooks: WEBHOOK_INVALID_REQUEST); else INVALID_REQUEST. */
  validationCode?: ErrorCode;
  /** The 401 code of a request without its API keys, where the family documents its own (webhooks: NOT_AUTHENTICATED); else INVALID_CREDENTIALS. */
  missingKeysCode?: ErrorCode;
}

export type RouteAuth = 'merchant' | 'none';

/** The metadata of a route that takes no credentials; its type says so, for servers that type handlers by it. */
export interface PublicRouteMeta extends RouteMeta {
  auth: 'none';
}

export type Domain =
  | 'customers'
  | 'checkout'
  | 'payment-methods'
  | 'payments'
  | 'subscriptions'
  | 'marketplace'
  | 'banking'
  | 'webhooks'
  | 'sandbox';

/** A route's metadata; its error codes keep their literal type, from which its responses are built. */
export function meta<const C extends readonly ErrorCode[]>(m: PublicRouteMeta & { errors: C }): PublicRouteMeta & { errors: C };
export function meta<const C extends readonly ErrorCode[]>(m: RouteMeta & { errors: C }): RouteMeta & { errors: C };
export function meta(m: RouteMeta): RouteMeta {
  return m;
}

/**
 * The code `bodyFieldCodes` gives an invalid body field at `path`: the field's own, else the
 * nearest field holding it (`subscription_triggers` holds `subscription_triggers.2`). The sandbox
 * answers with it and the conformance runner expects it, from this one rule.
 */
export function bodyFieldCodeOf(m: RouteMeta, path: readonly PropertyKey[]): ErrorCode | undefined {
  const codes = m.bodyFieldCodes;
  if (!codes) return undefined;
  for (let length = path.length; length > 0; length -= 1) {
    const code = codes[path.slice(0, length).map(String).join('.')];
    if (code) return code;
  }
  return undefined;
}
