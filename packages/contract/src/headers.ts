import { z } from 'zod';

export const PUBLIC_KEY_HEADER = 'public-api-key';
export const SECRET_KEY_HEADER = 'private-secret-key';
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';
export const ACCOUNT_CODE_HEADER = 'x-account-code';

/** Both API keys, on every route (§5); merged into each route by the routers' `baseHeaders`. */
export const AuthHeaders = z.object({
  [PUBLIC_KEY_HEADER]: z.string().min(1),
  [SECRET_KEY_HEADER]: z.string().min(1),
});

/** Idempotent routes 4.1, 4.2, 4.3, 4.5, 4.6, 4.9 and supporting writes: any key of 1–255 characters. */
export const IdempotencyKeyHeader = z.object({
  [IDEMPOTENCY_HEADER]: z.string().min(1).max(255),
});

/** Idempotent routes 4.4 and 4.8, where the key must be a UUID. */
export const UuidIdempotencyKeyHeader = z.object({
  [IDEMPOTENCY_HEADER]: z.string().uuid(),
});

/** 4.13 takes the account as an optional header. */
export const AccountCodeHeader = z.object({
  [ACCOUNT_CODE_HEADER]: z.string().uuid().optional(),
});
