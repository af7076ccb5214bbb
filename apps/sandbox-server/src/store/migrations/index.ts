import { dueOf } from '../../domain/due-work.js';
import type { RecordKind } from '../types.js';

/** What a migration may run besides its SQL, in the same transaction. */
export type MigrationQuery = (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * Versioned schema migrations, applied in order on start (and by `switchyard-sandbox migrate`).
 * A migration is never edited once released: add a new one. `backfill` runs after the SQL, in the
 * same transaction, for values only the application can compute.
 */
export const MIGRATIONS: { version: number; name: string; sql: string; backfill?: (query: MigrationQuery) => Promise<void> }[] = [
  {
    version: 1,
    name: 'records',
    sql: `
      CREATE TABLE merchants (
        id text PRIMARY KEY,
        public_api_key text NOT NULL UNIQUE,
        data json NOT NULL
      );
      CREATE TABLE records (
        merchant_id text NOT NULL,
        kind text NOT NULL,
        id text NOT NULL,
        unique_key text,
        seq bigserial NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (merchant_id, kind, id)
      );
      CREATE UNIQUE INDEX records_unique_key ON records (merchant_id, kind, unique_key) WHERE unique_key IS NOT NULL;
      CREATE INDEX records_by_kind ON records (merchant_id, kind, seq);
      CREATE INDEX records_locate ON records (kind, unique_key) WHERE unique_key IS NOT NULL;
    `,
  },
  {
    version: 2,
    name: 'due_work_index',
    // When the clock next has work on each record (`dueOf`): a clock advance and the webhook
    // dispatcher read the due records of one merchant through this index instead of every record.
    sql: `
      ALTER TABLE records ADD COLUMN due_lane text, ADD COLUMN due_at bigint;
      CREATE INDEX records_due ON records (merchant_id, kind, due_lane, due_at) WHERE due_at IS NOT NULL;
    `,
    backfill: async (query) => {
      let after: [string, string, string] = ['', '', ''];
      for (;;) {
        const { rows } = (await query(
          `SELECT merchant_id, kind, id, data FROM records
           WHERE kind IN ('subscription', 'banking_onboarding', 'webhook_delivery', 'event', 'idempotency') AND (merchant_id, kind, id) > ($1, $2, $3)
           ORDER BY merchant_id, kind, id LIMIT 500`,
          after,
        )) as { rows: { merchant_id: string; kind: RecordKind; id: string; data: unknown }[] };
        for (const r of rows) {
          const due = dueOf(r.kind, r.data);
          if (due) await query('UPDATE records SET due_lane = $4, due_at = $5 WHERE merchant_id = $1 AND kind = $2 AND id = $3', [r.merchant_id, r.kind, r.id, due.lane, due.at]);
        }
        const last = rows[rows.length - 1];
        if (!last) return;
        after = [last.merchant_id, last.kind, last.id];
      }
    },
  },
];
