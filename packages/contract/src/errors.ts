import { z } from 'zod';

/**
 * The one error shape of the API: `{code, messages[]}`; the banking family adds `http_code`.
 * A validation failure names the offending field(s) in `messages`.
 */
export const ApiError = z.object({
  code: z.string(),
  messages: z.array(z.string()),
  http_code: z.number().int().optional(),
});
export type ApiError = z.infer<typeof ApiError>;

/** Every error code the API answers with, by family. Codes outside this list are still valid `ApiError`s. */
export const ERROR_CODES = {
  request: [
    'INVALID_REQUEST',
    'MISSING_PARAMETERS',
    'INVALID_PARAMETERS',
    'IDEMPOTENCY_DUPLICATED',
    'REQUEST_IN_PROCESS',
    'REQUEST_TOO_LARGE',
    'NOT_FOUND',
    'UNSUPPORTED_METHOD',
  ],
  auth: ['INVALID_CREDENTIALS', 'EXPIRED_CREDENTIALS', 'AUTHORIZATION_REQUIRED'],
  payments: [
    'PAYMENT_NOT_FOUND',
    'TRANSACTION_NOT_FOUND',
    'CUSTOMER_NOT_FOUND',
    'CUSTOMER_ID_DUPLICATED',
    'CHECKOUT_SESSION_NOT_FOUND',
    'SUBSCRIPTION_NOT_FOUND',
    'INVALID_STATE',
    'INVALID_TRANSACTION',
    'INVALID_AMOUNT',
    'CHARGEBACK_IN_PROCESS',
    'CUSTOMER_SESSION_NOT_FOUND',
    'PAYMENT_METHOD_NOT_FOUND',
  ],
  marketplace: [
    'TRANSFER_NOT_REVERSIBLE',
    'TRANSFER_ALREADY_REVERSED',
    'REVERSAL_AMOUNT_EXCEEDS',
    'INVALID_CURRENCY',
    'TRANSFER_NOT_FOUND',
    'RECIPIENT_NOT_FOUND',
    'PROVIDER_INTERNAL_ERROR',
    'PROVIDER_NOT_FOUND',
    'ONBOARDING_NOT_VALID',
    'CURRENCY_NOT_SUPPORTED',
    'INSUFFICIENT_BALANCE',
  ],
  banking: [
    'VALIDATION_ERROR',
    'DUPLICATE_ENTITY',
    'ENTITY_NOT_FOUND',
    'ONBOARDING_NOT_FOUND',
    'ACCOUNT_NOT_FOUND',
    'CURRENCY_MISMATCH',
    'TOO_MANY_REQUESTS',
  ],
  webhooks: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_ALREADY_EXISTS', 'WEBHOOK_INVALID_REQUEST', 'WEBHOOK_INVALID_TRIGGER', 'WEBHOOK_INVALID_RENEWAL_DAYS', 'WEBHOOK_URL_UNSAFE', 'INVALID_ACCOUNT_ID', 'NOT_AUTHENTICATED'],
  server: ['INTERNAL_ERROR', 'REQUEST_TIMEOUT'],
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES][number];

/**
 * The HTTP status of each code: domain code throws a code, and the HTTP layer answers with the
 * status this table gives it. Upstream decides (upstream's notes, "Errors"):
 * the core payment family answers 400 even for "not found" and "duplicate"; transfers, banking and
 * webhooks use real 404/409/422/502. Codes the sandbox also answers at the transport level keep
 * their own status there (REQUEST_TOO_LARGE is 431 for headers too large, INVALID_REQUEST 417 for
 * an unmet `Expect`).
 */
export const STATUS_OF = {
  INVALID_REQUEST: 400,
  MISSING_PARAMETERS: 400,
  INVALID_PARAMETERS: 400,
  IDEMPOTENCY_DUPLICATED: 400,
  REQUEST_IN_PROCESS: 400,
  REQUEST_TOO_LARGE: 413,
  NOT_FOUND: 404,
  UNSUPPORTED_METHOD: 405,
  INVALID_CREDENTIALS: 401,
  EXPIRED_CREDENTIALS: 401,
  AUTHORIZATION_REQUIRED: 403,
  PAYMENT_NOT_FOUND: 400,
  TRANSACTION_NOT_FOUND: 400,
  CUSTOMER_NOT_FOUND: 400,
  CUSTOMER_ID_DUPLICATED: 400,
  CHECKOUT_SESSION_NOT_FOUND: 400,
  SUBSCRIPTION_NOT_FOUND: 400,
  INVALID_STATE: 400,
  INVALID_TRANSACTION: 400,
  INVALID_AMOUNT: 400,
  CHARGEBACK_IN_PROCESS: 400,
  CUSTOMER_SESSION_NOT_FOUND: 400,
  PAYMENT_METHOD_NOT_FOUND: 400,
  TRANSFER_NOT_REVERSIBLE: 400,
  TRANSFER_ALREADY_REVERSED: 400,
  REVERSAL_AMOUNT_EXCEEDS: 400,
  INVALID_CURRENCY: 400,
  TRANSFER_NOT_FOUND: 404,
  RECIPIENT_NOT_FOUND: 404,
  PROVIDER_INTERNAL_ERROR: 502,
  // A standalone transfer refused before the provider is called: upstream answers all four 400
  // (Create Standalone Transfer, 400 examples). INSUFFICIENT_BALANCE is listed
  // among the banking family's 422s in upstream's notes, but no banking operation file documents it
  // and the sandbox answers it only for transfers, so the transfer file's 400 governs.
  PROVIDER_NOT_FOUND: 400,
  ONBOARDING_NOT_VALID: 400,
  CURRENCY_NOT_SUPPORTED: 400,
  INSUFFICIENT_BALANCE: 400,
  VALIDATION_ERROR: 400,
  DUPLICATE_ENTITY: 409,
  ENTITY_NOT_FOUND: 404,
  ONBOARDING_NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  CURRENCY_MISMATCH: 422,
  TOO_MANY_REQUESTS: 429,
  WEBHOOK_NOT_FOUND: 404,
  WEBHOOK_ALREADY_EXISTS: 409,
  // Upstream's webhook management answers its own validation codes (WEBHOOK_INVALID_REQUEST for any
  // invalid request without a more precise code), and a foreign account_id, with 400
  // (Manage Webhooks, InvalidCreateRequest / InvalidListRequest / InvalidAccountRequest).
  WEBHOOK_INVALID_REQUEST: 400,
  WEBHOOK_INVALID_TRIGGER: 400,
  WEBHOOK_INVALID_RENEWAL_DAYS: 400,
  // Upstream's webhook operations answer a request without keys NOT_AUTHENTICATED and wrong keys
  // INVALID_CREDENTIALS (Manage Webhooks, Unauthorized); no other family documents it.
  NOT_AUTHENTICATED: 401,
  // Upstream's answer to a URL that is not a public, routable address (InvalidCreateRequest).
  WEBHOOK_URL_UNSAFE: 400,
  INVALID_ACCOUNT_ID: 400,
  INTERNAL_ERROR: 500,
  // The sandbox's answer to a request that does not arrive in time; upstream's gateway time-out is a 504.
  REQUEST_TIMEOUT: 408,
} as const satisfies Record<ErrorCode, number>;

/**
 * The server's fault rather than the request's (a 5xx): a retry with the same idempotency key may
 * succeed, so such an error must not use the key up.
 */
export const isServerFault = (code: ErrorCode): boolean => STATUS_OF[code] >= 500;

/**
 * Codes every route that takes the merchant's keys can answer, whatever it does: a bad request,
 * bad keys, a forbidden account, a server fault. A route's metadata names the codes it answers
 * besides these (`RouteMeta.errors`).
 */
export const COMMON_ERRORS = [
  'INVALID_REQUEST',
  'MISSING_PARAMETERS',
  'INVALID_PARAMETERS',
  'INVALID_CREDENTIALS',
  'EXPIRED_CREDENTIALS',
  'AUTHORIZATION_REQUIRED',
  'INTERNAL_ERROR',
] as const satisfies readonly ErrorCode[];

/** The error responses of a route that answers `C`: the one error shape under each status `STATUS_OF` gives them. */
export type ErrorResponses<C extends readonly ErrorCode[]> = { [S in (typeof STATUS_OF)[C[number]]]: typeof ApiError };

export function errorResponses<const C extends readonly ErrorCode[]>(codes: C): ErrorResponses<C> {
  return Object.fromEntries(codes.map((code) => [STATUS_OF[code], ApiError])) as ErrorResponses<C>;
}

/** The error responses of `COMMON_ERRORS`, which every `/v1` router adds to each route. */
export const commonErrorResponses = errorResponses(COMMON_ERRORS);

