import { z } from 'zod';
import { DateTime, Uuid, text } from '../shared/primitives.js';
import { listOf } from '../validation.js';

/** A thousand years of sandbox clock: more than any run advances, far less than the dates JavaScript can hold. */
export const MAX_SNAPSHOT_CLOCK_OFFSET_SECONDS = 1000 * 365 * 24 * 3600;

/** The most records one snapshot holds: an export of a larger merchant is refused, so is an import. */
export const MAX_SNAPSHOT_RECORDS = 20_000;

export const SNAPSHOT_FORMAT = 'switchyard.snapshot';

/** One stored record: its kind, id and unique key as the store keeps them, and its data. */
export const SnapshotRecord = z.object({
  kind: text(1, 64),
  id: text(1, 255),
  unique_key: text(1, 512).nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type SnapshotRecord = z.infer<typeof SnapshotRecord>;

/**
 * A merchant's whole state: `GET /sandbox/snapshot` exports it, `POST /sandbox/snapshot` imports
 * it into an empty merchant. `version` is the store's schema (migration) number it was taken at.
 * It never holds the merchant's API keys.
 */
export const Snapshot = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.number().int().min(1),
  exported_at: DateTime,
  merchant: z.object({
    /** The account ids the records belong to: the importing merchant takes them over. */
    account_ids: z.array(Uuid).min(1).max(10),
    /** Never negative (the sandbox clock only moves forward); bounded so that every date it makes stays a valid one. */
    clock_offset_seconds: z.number().int().min(0).max(MAX_SNAPSHOT_CLOCK_OFFSET_SECONDS),
  }),
  records: listOf(SnapshotRecord, MAX_SNAPSHOT_RECORDS),
});
export type Snapshot = z.infer<typeof Snapshot>;

export const SnapshotImportResult = z.object({
  imported: z.number().int(),
  account_ids: z.array(Uuid),
  clock_offset_seconds: z.number().int(),
});
