import { ConfigError } from './config-error.js';
import { parseDatabaseUrl, withoutPassword } from './database-url.js';

/** The sandbox could not start for a reason outside it (a port taken, a database down): the CLI prints `message` and `hint` on one line and exits 1. */
export class StartupError extends Error {
  override name = 'StartupError';
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

const codeOf = (error: unknown) => (error as { code?: unknown } | undefined)?.code;

/** What the system said when the server could not listen, in words; other errors as they are. */
export function listenError(error: unknown, host: string, port: number): unknown {
  switch (codeOf(error)) {
    case 'EADDRINUSE':
      return new StartupError(`port ${port} on ${host} is already in use`, 'stop what listens there, or pass --port <another> (--port 0 picks a free one)');
    case 'EACCES':
      return new StartupError(`not allowed to listen on port ${port} on ${host}`, 'ports below 1024 need privileges: pass --port 4010 or another above 1023');
    case 'EADDRNOTAVAIL':
      return new StartupError(`${host} is not an address of this machine`, 'pass --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface)');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`the host name ${host} does not resolve`, 'pass --host 127.0.0.1 or an address of this machine');
    default:
      return error;
  }
}

const DEFAULT_DATABASE_HINT = 'check --database-url (or DATABASE_URL), or leave it out to use the memory store';

function databaseHint(code: unknown, database: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'is PostgreSQL running and listening there? Check the host and port of --database-url, or leave it out to use the memory store';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve: check the host of --database-url';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host cannot be reached from here: check the host of --database-url and the network';
    // PostgreSQL's SQLSTATE codes: invalid password, invalid authorization, unknown database, missing privilege.
    case '28P01':
    case '28000':
      return 'check the user and password in --database-url';
    case '3D000':
      return `create the database first (createdb ${database}) or name another one in --database-url`;
    case '42501':
      return 'the user needs the right to create the schema and its tables (or run switchyard-sandbox migrate as a user who has it)';
    default:
      return DEFAULT_DATABASE_HINT;
  }
}

/**
 * Why the PostgreSQL store could not open, without the URL's password. Node reports a refused
 * connection to a name with several addresses as an AggregateError with an empty message: its
 * code then stands for the message.
 */
export function databaseError(error: unknown, databaseUrl: string): unknown {
  if (error instanceof ConfigError) return error;
  const { host, port, database } = parseDatabaseUrl(databaseUrl);
  const code = codeOf(error);
  const said = withoutPassword(error instanceof Error ? error.message : String(error), databaseUrl).replace(/\s+/g, ' ').trim();
  return new StartupError(`cannot use PostgreSQL at ${host}:${port}, database ${database}: ${said || String(code ?? 'unknown error')}`, databaseHint(code, database));
}

/** The line the CLI prints for an error it can explain; undefined for an unexpected one (its stack is printed instead). */
export function oneLine(error: unknown): { line: string; exitCode: number } | undefined {
  if (!(error instanceof ConfigError) && !(error instanceof StartupError)) return undefined;
  const message = error.message.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return { line: `switchyard-sandbox: ${message}. Hint: ${error.hint}.`, exitCode: error instanceof ConfigError ? 2 : 1 };
}
