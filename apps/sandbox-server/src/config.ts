import { parseArgs } from 'node:util';
import { ConfigError } from './config-error.js';
import { parseDatabaseUrl } from './database-url.js';

export { ConfigError } from './config-error.js';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './http/http-server.js';
import { DEFAULT_POOL_SIZE } from './store/postgres.js';

export interface SandboxConfig {
  port: number;
  host: string;
  /** Deterministic ids, fingerprints and a frozen clock when set. */
  seed: string | undefined;
  /** JSON file with extra merchants: `[{ "name", "public_api_key", "private_secret_key", "account_ids" }]`. */
  merchantsFile: string | undefined;
  /** Public base URL (hosted checkout links are built on it); defaults to http://host:port. */
  publicUrl: string | undefined;
  logLevel: string;
  bodyLimit: string;
  responseValidation: boolean;
  maxProviderLatencyMs: number;
  /** Multiplies webhook retry delays (1: upstream's schedule). */
  webhookTimeScale: number;
  webhookTimeoutMs: number;
  /** PostgreSQL connection string; the memory store when absent. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema (default public). */
  databaseSchema: string | undefined;
  /** Connections this process opens to PostgreSQL at most; N replicas open N times as many (docs/scaling.md). */
  databasePoolSize: number;
  /**
   * Key of the HMAC that merchant secret keys are stored as. When absent: random per process on
   * the memory store, generated once and kept in the database on PostgreSQL (docs/deploy.md).
   */
  secretKeyPepper: string | undefined;
  /** How long a connection may take to send its request, and stay idle after a response. */
  httpTimeouts: HttpTimeouts;
  /** Entries the request journal keeps per merchant (`GET /sandbox/requests`); 0 turns it off. */
  journalSize: number;
}

export const DEFAULT_PORT = 4010;
const DEFAULT_JOURNAL_SIZE = 200;
/** Per merchant; with the journal's merchant and body caps this bounds its memory (docs/sandbox.md, "Request journal"). */
const MAX_JOURNAL_SIZE = 1000;
const MIN_PEPPER_LENGTH = 32;
/** PostgreSQL's default max_connections is 100: a pool past a few hundred only queues in the database instead. */
const MAX_POOL_SIZE = 500;

/** One row of the usage's option table; `text` may run over several lines, the variable goes on the first. */
interface UsageOption {
  flag: string;
  text: string[];
  env?: string;
}

const OPTIONS: UsageOption[][] = [
  [
    { flag: '--port <n>', text: [`port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)`], env: 'SANDBOX_PORT' },
    { flag: '--host <addr>', text: ['address to bind (default 127.0.0.1; 0.0.0.0 in the container)'], env: 'SANDBOX_HOST' },
    { flag: '--seed <text>', text: ['deterministic ids and a frozen clock, for snapshot tests'], env: 'SANDBOX_SEED' },
    { flag: '--merchants <file>', text: ['JSON file of extra merchants'], env: 'SANDBOX_MERCHANTS_FILE' },
    { flag: '--public-url <url>', text: ['base URL clients reach the sandbox on'], env: 'SANDBOX_PUBLIC_URL' },
    { flag: '--log-level <level>', text: ['pino level: fatal, error, warn, info, debug (default info)'], env: 'SANDBOX_LOG_LEVEL' },
    { flag: '--response-validation', text: ['validate every response against the contract'], env: 'SANDBOX_RESPONSE_VALIDATION=true' },
    { flag: '--webhook-time-scale <x>', text: ['multiply webhook retry delays (0.001: 5 min → 300 ms)'], env: 'SANDBOX_WEBHOOK_TIME_SCALE' },
    { flag: '--database-url <url>', text: ['PostgreSQL instead of the memory store (migrated on start)'], env: 'DATABASE_URL' },
    { flag: '--database-schema <s>', text: ['PostgreSQL schema (default public)'], env: 'SANDBOX_DATABASE_SCHEMA' },
    { flag: '--database-pool-size <n>', text: [`PostgreSQL connections per process (default ${DEFAULT_POOL_SIZE})`], env: 'SANDBOX_DATABASE_POOL_SIZE' },
    {
      flag: '--secret-key-pepper <k>',
      text: ['key of the HMAC merchant secret keys are stored as (32+ chars;', 'default: random per process, or kept in the database)'],
      env: 'SANDBOX_SECRET_KEY_PEPPER',
    },
  ],
  [{ flag: '-h, --help', text: ['show this text'] }],
];

/** The option table in three columns, each as wide as its longest entry (computed, so a value filled in never shifts one). */
function optionTable(groups: UsageOption[][]): string {
  const rows = groups.flat();
  const flagWidth = Math.max(...rows.map((o) => o.flag.length)) + 2;
  const textWidth = Math.max(...rows.flatMap((o) => o.text.map((t) => t.length))) + 2;
  const render = ({ flag, text, env }: UsageOption) =>
    text.map((line, i) => `  ${(i === 0 ? flag : '').padEnd(flagWidth)}${i === 0 && env ? `${line.padEnd(textWidth)}${env}` : line}`).join('\n');
  return groups.map((group) => group.map(render).join('\n')).join('\n\n');
}

const USAGE = `switchyard-sandbox [options]

${optionTable(OPTIONS)}

switchyard-sandbox migrate --database-url <url>   applies the migrations and exits
`;

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function timeScale(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 1) throw new ConfigError(`--webhook-time-scale must be a number above 0 and at most 1, got "${raw}"`);
  return n;
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `6mb`, `64kb`, `512` → bytes; undefined when the text is not a size. */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(text);
  if (!m) return undefined;
  return Math.floor(Number(m[1]) * (UNITS[(m[2] ?? 'b').toLowerCase()] as number));
}

/** Flags win over environment variables, which win over defaults. */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv): SandboxConfig | { help: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        merchants: { type: 'string' },
        'public-url': { type: 'string' },
        'log-level': { type: 'string' },
        'response-validation': { type: 'boolean' },
        'webhook-time-scale': { type: 'string' },
        'database-url': { type: 'string' },
        'database-schema': { type: 'string' },
        'database-pool-size': { type: 'string' },
        'secret-key-pepper': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
  } catch (error) {
    // Node's own words ("Unknown option '--nope'"), on one line; the usage is one --help away.
    throw new ConfigError((error as Error).message.replace(/\s+/g, ' '));
  }
  const v = parsed.values;
  if (v.help) return { help: USAGE };
  const logLevel = v['log-level'] ?? env.SANDBOX_LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) throw new ConfigError(`unknown log level "${logLevel}"`);
  const bodyLimit = env.SANDBOX_BODY_LIMIT ?? '6mb';
  if (parseSize(bodyLimit) === undefined) throw new ConfigError(`SANDBOX_BODY_LIMIT must be a size such as 6mb or 512kb, got "${bodyLimit}"`);
  const secretKeyPepper = v['secret-key-pepper'] ?? env.SANDBOX_SECRET_KEY_PEPPER;
  // The pepper is what keeps a copy of the merchants table from being tested against guesses.
  if (secretKeyPepper !== undefined && secretKeyPepper.length < MIN_PEPPER_LENGTH) {
    throw new ConfigError(`SANDBOX_SECRET_KEY_PEPPER must be at least ${MIN_PEPPER_LENGTH} characters (openssl rand -hex 32 makes one)`);
  }
  const requestTimeoutMs = integer('SANDBOX_REQUEST_TIMEOUT_MS', env.SANDBOX_REQUEST_TIMEOUT_MS, DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs, 100, 600_000);
  const headersTimeoutMs = integer('SANDBOX_HEADERS_TIMEOUT_MS', env.SANDBOX_HEADERS_TIMEOUT_MS, Math.min(DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs, requestTimeoutMs), 100, requestTimeoutMs);
  const httpTimeouts = {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer('SANDBOX_KEEP_ALIVE_TIMEOUT_MS', env.SANDBOX_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs, 0, 600_000),
  };
  const publicUrl = v['public-url'] ?? env.SANDBOX_PUBLIC_URL;
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+/.test(publicUrl)) throw new ConfigError(`--public-url must be an http(s) URL, got "${publicUrl}"`);
  const databaseUrl = v['database-url'] || env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined) parseDatabaseUrl(databaseUrl);
  return {
    port: integer('--port', v.port ?? env.SANDBOX_PORT, DEFAULT_PORT, 0, 65535),
    host: v.host ?? env.SANDBOX_HOST ?? '127.0.0.1',
    seed: v.seed ?? env.SANDBOX_SEED,
    merchantsFile: v.merchants ?? env.SANDBOX_MERCHANTS_FILE,
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    logLevel,
    bodyLimit,
    responseValidation: v['response-validation'] ?? env.SANDBOX_RESPONSE_VALIDATION === 'true',
    maxProviderLatencyMs: 30000,
    webhookTimeScale: timeScale(v['webhook-time-scale'] ?? env.SANDBOX_WEBHOOK_TIME_SCALE),
    webhookTimeoutMs: integer('SANDBOX_WEBHOOK_TIMEOUT_MS', env.SANDBOX_WEBHOOK_TIMEOUT_MS, 10000, 100, 60000),
    databaseUrl,
    databaseSchema: v['database-schema'] ?? env.SANDBOX_DATABASE_SCHEMA ?? undefined,
    databasePoolSize: integer('--database-pool-size / SANDBOX_DATABASE_POOL_SIZE', v['database-pool-size'] ?? env.SANDBOX_DATABASE_POOL_SIZE, DEFAULT_POOL_SIZE, 1, MAX_POOL_SIZE),
    secretKeyPepper,
    httpTimeouts,
    journalSize: integer('SANDBOX_JOURNAL_SIZE', env.SANDBOX_JOURNAL_SIZE, DEFAULT_JOURNAL_SIZE, 0, MAX_JOURNAL_SIZE),
  };
}
