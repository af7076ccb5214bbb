import type pg from 'pg';
import { dueOf } from '../../domain/due-work.js';
import type { SecretKeyDigests } from '../../runtime/secret-keys.js';
import type { MerchantRecord, RecordKind } from '../types.js';

/** What a migration written in TypeScript may use: its connection and the store's secret-key digests. */
export interface MigrationContext {
  client: pg.ClientBase;
  /** Resolves (and on first use generates) the pepper; needs `sandbox_settings`. */
  secretKeys: () => Promise<SecretKeyDigests>;
}

/** What a migration may run besides its SQL, in the same transaction. */
export type MigrationQuery = (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * A migration is SQL, with an optional `backfill` after it for values only the application can
 * compute, or a `run` in TypeScript for one that needs more than queries (the secret-key pepper).
 */
export type Migration = {
  version: number;
  name: string;
  /**
   * True for a migration that changes no record's data (an index): snapshots keep the version
   * they had, so a sandbox without it still imports them (app/snapshots.ts, SNAPSHOT_VERSION).
   */
  recordsUnchanged?: true;
} & ({ sql: string; backfill?: (query: MigrationQuery) => Promise<void> } | { run: (ctx: MigrationContext) => Promise<void> });

/** A merchant as kept before migration 3: its secret key in clear. */
type MerchantWithClearKey = Omit<MerchantRecord, 'secret_key_digest'> & { private_secret_key: string };

/**
 * Versioned schema migrations, applied in order on start (and by `switchyard-sandbox migrate`).
 * A migration is never edited once released: add a new one. `backfill` runs after the SQL, in the
 * same transaction, for values only the application can compute.
 */
export const MIGRATIONS: Migration[] = [
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
  {
    // Secrets at rest: merchant secret keys become HMAC-SHA256 digests (docs/deploy.md). The
    // digest needs the pepper, which this migration is the first to keep, so it runs in TypeScript.
    version: 3,
    name: 'merchant_secret_key_digests',
    run: async ({ client, secretKeys }) => {
      await client.query('CREATE TABLE sandbox_settings (name text PRIMARY KEY, value text NOT NULL)');
      const keys = await secretKeys();
      const merchants = await client.query<{ id: string; data: MerchantWithClearKey }>('SELECT id, data FROM merchants');
      for (const { id, data } of merchants.rows) {
        const { private_secret_key: clear, ...rest } = data;
        const next: MerchantRecord = { ...rest, secret_key_digest: keys.digest(clear) };
        await client.query('UPDATE merchants SET data = $2 WHERE id = $1', [id, JSON.stringify(next)]);
      }
    },
  },
  {
    // The payments of one subscription, newest first, without reading the merchant's other
    // payments (`Tx.newestBy`, the inspector's cycle payments). One expression index per indexed
    // field of `INDEXED_FIELDS`; the query repeats the expression and the predicate exactly.
    version: 4,
    name: 'payments_by_subscription_index',
    recordsUnchanged: true,
    sql: `CREATE INDEX records_payments_by_subscription ON records (merchant_id, (data ->> 'subscription_id'), seq) WHERE kind = 'payment'`,
  },
  {
    // records_by_kind (merchant_id, kind, seq) shares the primary key's leading columns, so for a
    // lookup by id the planner could take either, and took it whenever it believed the merchant's
    // records of the kind few: always before the table's first ANALYZE, and for every merchant
    // or kind the last ANALYZE had not seen. It then read every record of that kind of the merchant
    // to find one (6.5 ms a customer insert after 15 s of load on a new schema; docs/scaling.md).
    // The insertion-order index is now partial on a predicate every row meets and no lookup by id
    // states (`seq > 0`: seq comes from a sequence starting at 1), so only reads in insertion
    // order, which state it (postgres-sql.ts `inInsertionOrder`), can use it.
    version: 5,
    name: 'insertion_order_index_for_ordered_reads_only',
    recordsUnchanged: true,
    sql: `
      CREATE INDEX records_in_insertion_order ON records (merchant_id, kind, seq) WHERE seq > 0;
      DROP INDEX records_by_kind;
    `,
  },
  {
    // A public handle (a payment link's code, a payer page's or checkout session's id: types.ts
    // PUBLIC_HANDLE_KINDS) opens a hosted page whatever the merchant, so no two merchants may hold
    // one. Two snapshot imports at once could both take one, as the lookup index was not unique:
    // before the unique index, every copy but the oldest gives its key up (its pages stop opening,
    // as an import's copy of another merchant's handle does; the key column is not record data).
    version: 6,
    name: 'public_handles_unique_across_merchants',
    recordsUnchanged: true,
    sql: `
      UPDATE records r SET unique_key = NULL
        WHERE r.kind IN ('payment_link', 'payer_page', 'checkout_session') AND r.unique_key IS NOT NULL
          AND EXISTS (SELECT 1 FROM records o WHERE o.kind = r.kind AND o.unique_key = r.unique_key AND o.seq < r.seq);
      CREATE UNIQUE INDEX records_public_handle ON records (kind, unique_key)
        WHERE unique_key IS NOT NULL AND kind IN ('payment_link', 'payer_page', 'checkout_session');
    `,
  },
];
