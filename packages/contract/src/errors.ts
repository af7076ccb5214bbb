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
  ],
  banking: [
    'VALIDATION_ERROR',
    'DUPLICATE_ENTITY',
    'ENTITY_NOT_FOUND',
    'ONBOARDING_NOT_FOUND',
    'ACCOUNT_NOT_FOUND',
    'INSUFFICIENT_BALANCE',
    'CURRENCY_MISMATCH',
    'TOO_MANY_REQUESTS',
  ],
  webhooks: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_ALREADY_EXISTS'],
  server: ['INTERNAL_ERROR', 'REQUEST_TIMEOUT'],
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES][number];

/** Errors every route can answer: bad request, bad keys, a forbidden account, a server fault. */
export const commonErrorResponses = {
  400: ApiError,
  401: ApiError,
  403: ApiError,
  500: ApiError,
} as const;

