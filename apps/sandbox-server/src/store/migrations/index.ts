import type pg from 'pg';
import type { SecretKeyDigests } from '../../runtime/secret-keys.js';
import type { MerchantRecord } from '../types.js';

/** What a migration written in TypeScript may use: its connection and the store's secret-key digests. */
export interface MigrationContext {
  client: pg.ClientBase;
  /** Resolves (and on first use generates) the pepper; needs `sandbox_settings`. */
  secretKeys: () => Promise<SecretKeyDigests>;
}

export type Migration = { version: number; name: string } & ({ sql: string } | { run: (ctx: MigrationContext) => Promise<void> });

/** A merchant as kept before migration 3: its secret key in clear. */
type MerchantWithClearKey = Omit<MerchantRecord, 'secret_key_digest'> & { private_secret_key: string };

/**
 * Versioned schema migrations, applied in order on start (and by `switchyard-sandbox migrate`).
 * A migration is never edited once released: add a new one.
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
];
