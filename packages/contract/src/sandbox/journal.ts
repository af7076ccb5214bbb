import { z } from 'zod';
import { DateTime, text } from '../shared/primitives.js';
import { queryInteger } from '../validation.js';

/** The most entries one `GET /sandbox/requests` answers (the ring itself holds at most `SANDBOX_JOURNAL_SIZE`). */
export const MAX_JOURNAL_LIMIT = 1000;

/** The fault the sandbox applied to a request: from a rule (`/sandbox/faults`) or the `x-sandbox-fault` header. */
export const JournalFault = z.object({
  source: z.enum(['rule', 'header']),
  rule_id: z.string().optional(),
  effect: z.string(),
});

/**
 * One `/v1` request the merchant made, as the sandbox served it. Bodies are JSON with card
 * numbers, security codes and keys masked; a body too large to keep is a string (its start).
 */
export const JournalEntry = z.object({
  id: z.string(),
  /** When the request arrived, in real time (not the merchant's sandbox clock). */
  at: DateTime,
  method: z.string(),
  /** The path without its query string. */
  path: z.string(),
  operation_id: z.string().nullable(),
  status: z.number().int(),
  duration_ms: z.number(),
  request_id: z.string(),
  idempotency_key: z.string().nullable(),
  /** The answer was the stored response of an earlier request with the same idempotency key. */
  replayed: z.boolean(),
  fault: JournalFault.nullable(),
  request_body: z.unknown(),
  response_body: z.unknown(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

export const ListRequestsQuery = z.object({
  operation_id: text(1, 100).optional(),
  status: queryInteger(100, 599).optional(),
  /** Entries that arrived at or after this time. */
  since: DateTime.optional(),
  /** Entries that arrived before this time. */
  until: DateTime.optional(),
  /** The most recent `limit` matching entries (default 100). */
  limit: queryInteger(1, MAX_JOURNAL_LIMIT).optional(),
});
export type ListRequestsQuery = z.infer<typeof ListRequestsQuery>;
