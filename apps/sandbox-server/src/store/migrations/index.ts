/**
 * Versioned schema migrations, applied in order on start (and by `switchyard-sandbox migrate`).
 * A migration is never edited once released: add a new one.
 */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
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
];
