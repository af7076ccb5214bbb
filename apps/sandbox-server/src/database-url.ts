import { ConfigError } from './config-error.js';

const EXAMPLE = 'postgres://user:password@127.0.0.1:5432/database';

/** Where a PostgreSQL URL points, without its password: what the banner and error messages may show. */
export interface DatabaseTarget {
  host: string;
  port: string;
  database: string;
}

/**
 * Checks a `--database-url` / `DATABASE_URL` before anything connects: the pg driver reads
 * `not-a-url` as a socket path and `mysql://…` as PostgreSQL, and fails later with a message
 * that names neither. The errors never repeat the URL, which may hold a password.
 */
export function parseDatabaseUrl(raw: string): DatabaseTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('the database URL (--database-url or DATABASE_URL) is not a URL', `write it as ${EXAMPLE}`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`the database URL is a ${url.protocol.slice(0, -1)}: URL; the sandbox stores in PostgreSQL only`, `write it as ${EXAMPLE}, or leave it out for the memory store`);
  }
  // The driver percent-decodes these three and throws a bare URIError on a bad escape (`%zz`, a lone `%`).
  decoded(url.username, 'user');
  decoded(url.password, 'password');
  return {
    // pg's defaults when the URL leaves them out (a socket directory can come as ?host=).
    host: url.hostname || url.searchParams.get('host') || 'localhost',
    port: url.port || '5432',
    database: decoded(url.pathname.slice(1), 'database name') || '(default)',
  };
}

/** A part of the URL percent-decoded; a bad escape is a ConfigError that names the part, never its value. */
function decoded(part: string, name: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ConfigError(`the database URL's ${name} has a bad percent-escape`, 'write a % in it as %25, and any other reserved character as %XX');
  }
}

/** `PostgreSQL 127.0.0.1:5432, database test, schema public` (no user, no password). */
export function describeDatabase(raw: string, schema: string | undefined): string {
  const { host, port, database } = parseDatabaseUrl(raw);
  return `PostgreSQL ${host}:${port}, database ${database}, schema ${schema ?? 'public'}`;
}

/** `text` with the URL's password replaced, for messages that quote what the driver said. */
export function withoutPassword(text: string, raw: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(raw).password);
  } catch {
    return text;
  }
  return password ? text.split(password).join('***') : text;
}

/** What the banner says the data lives in. */
export function describeStore(databaseUrl: string | undefined, schema: string | undefined): string {
  return databaseUrl === undefined ? 'memory (data lives as long as the process)' : describeDatabase(databaseUrl, schema);
}
