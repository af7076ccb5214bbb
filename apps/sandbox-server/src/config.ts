import { parseArgs } from 'node:util';
import { ConfigError } from './config-error.js';
import { parseDatabaseUrl } from './database-url.js';
import { DEFAULT_LIMITS, type TenantLimits } from './tenant-limits.js';

export { ConfigError } from './config-error.js';

/** How log lines are written: `json` (one pino object a line, for machines) or `pretty` (for a person at a terminal). */
export type LogFormat = 'json' | 'pretty';
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/** How long the server waits on a client (docs/sandbox-errors.md, "Connections"). */
export interface HttpTimeouts {
  /**
   * From a connection's opening (or the end of its previous request) until a request's headers
   * are in: also what closes a connection that never sends a byte.
   */
  headersTimeoutMs: number;
  /** From the same start until the whole request, body included, is in: a trickled body ends here. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open after a response. */
  keepAliveTimeoutMs: number;
}

/**
 * A keep-alive connection lives 65 s, not Node's 5 s. A client reuses an idle connection until
 * its own idle limit (Node's fetch: the server's advertised time-out less 1-2 s, checked on a
 * timer of about a second); a request it sends just as the server closes the connection is lost
 * (`fetch failed`, `ECONNRESET`), and a POST without an idempotency key cannot be retried. At 5 s
 * any test that waited a few seconds between two requests (for a webhook, for a `Retry-After`)
 * could hit that moment (this project's fidelity suite did, and its end-to-end suite lost POSTs
 * with `fetch failed` on a loaded machine); at 65 s only a connection left idle for about a
 * minute can, and it outlasts the 60 s idle limits of the usual proxies in front of it. An idle
 * connection costs a socket and no CPU.
 */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000 };

/**
 * Connections of one process's pool: measured in docs/scaling.md ("The pool, from measurement"), enough for the
 * requests one process has in a transaction at once; N replicas open N times as many.
 */
export const DEFAULT_POOL_SIZE = 10;

/**
 * The schema names the store takes: lower-case ASCII letters, digits and `_`, not starting with a
 * digit, at most 63 (PostgreSQL cuts a longer name to 63 bytes, so two long names could share one
 * schema), and not `pg_…` (PostgreSQL keeps that prefix for its own schemas). The store writes the
 * name quoted, so that a keyword (`user`, `order`) is a name like any other; with this form, quoted
 * or not it names the same schema, and an operator can type it bare in psql.
 */
export const SCHEMA_NAME = /^(?!pg_)[a-z_][a-z0-9_]{0,62}$/;
/** `SCHEMA_NAME` in words, for the errors that refuse a name. */
export const SCHEMA_NAME_FORM = '1 to 63 lower-case letters, digits and _, not starting with a digit or pg_';

/** What clients that do not read may make the server hold (docs/sandbox-errors.md, "Connections"). */
export interface OutputLimits {
  /** How long a client may take none of a finished response before its connection is closed. */
  writeTimeoutMs: number;
  /** Bytes of finished responses their clients have not taken, over every connection, past which the idlest are closed. */
  budgetBytes: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { writeTimeoutMs: 10_000, budgetBytes: 64 * 1024 * 1024 };

/**
 * Where webhooks may be sent (`SANDBOX_WEBHOOK_DESTINATIONS`, docs/security.md): anywhere (the
 * default, for local use where receivers are on localhost), public addresses only (a shared
 * sandbox: no loopback, private, link-local or metadata address), or the hosts of an allow-list.
 * Whatever the setting, never the sandbox itself.
 */
export type DestinationPolicy = { kind: 'any' } | { kind: 'public' } | { kind: 'allow'; hosts: string[] };

/** `any`, `public`, or a comma-separated list of hosts (`hooks.example.com`, `*.example.com`, `10.0.0.5:8080`). */
export function parseDestinations(text: string): DestinationPolicy | undefined {
  const value = text.trim().toLowerCase();
  if (value === 'any') return { kind: 'any' };
  if (value === 'public') return { kind: 'public' };
  const hosts = value.split(',').map((h) => h.trim());
  if (hosts.length === 0 || hosts.some((h) => !/^(\*\.)?[a-z0-9.\-[\]:]+$/.test(h))) return undefined;
  return { kind: 'allow', hosts };
}

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
  /** `json` or `pretty`; when not given, pretty on a terminal and JSON otherwise (logFormatFor). */
  logFormat: LogFormat | undefined;
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
  /** What clients that do not read their responses may make the server hold. */
  outputLimits: OutputLimits;
  /** Entries the request journal keeps per merchant (`GET /sandbox/requests`); 0 turns it off. */
  journalSize: number;
  /** Where webhooks may be sent (docs/security.md, "Webhook destinations"). */
  webhookDestinations: DestinationPolicy;
  /** What one tenant may hold (docs/security.md). */
  limits: TenantLimits;
  /** Resident bytes past which the memory store refuses new records (docs/sandbox.md, "Memory ceiling"); none: only V8's heap limit. */
  memoryLimitBytes: number | undefined;
}

export const DEFAULT_PORT = 4010;
const DEFAULT_JOURNAL_SIZE = 200;
/** Per merchant; with the journal's merchant and body caps this bounds its memory (docs/sandbox-testing.md, "Request journal"). */
const MAX_JOURNAL_SIZE = 1000;
const MIN_PEPPER_LENGTH = 32;
/** Each webhook is a POST per event: past a few hundred, one payment is a flood. */
const MAX_WEBHOOKS_PER_ACCOUNT = 500;
/** A sandbox that has just started holds about 100 MB resident: a lower limit would refuse every record. */
const MIN_MEMORY_LIMIT = 128 * 1024 ** 2;
/** PostgreSQL's default max_connections is 100: a pool past a few hundred only queues in the database instead. */
const MAX_POOL_SIZE = 500;
const DEFAULT_BODY_LIMIT = '6mb';
const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** The pino levels `--log-level` takes; `silent` turns logs off. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * A setting: its environment variable and, for most, a flag, which wins over the variable. The
 * usage, the flags the parser accepts and the variables `loadConfig` reads all come from
 * `SETTINGS`, so no setting can be read without --help listing it; config.test.ts holds the table
 * of docs/sandbox.md to the usage.
 */
interface Setting {
  /** The flag without its dashes (`port` for `--port`); none for a setting only the environment gives. */
  flag?: string;
  /** What the flag takes, as the usage shows it (`<n>`); a flag without one is a switch, and its variable is on when `true`. */
  value?: string;
  env: string;
  /** The usage's description; it may run over several lines, the variable goes on the first. */
  text: string[];
  /** An empty value counts as none (a compose file's `DATABASE_URL=`), so the next source or the default applies. */
  blankIsUnset?: boolean;
}

/** In the order of the usage: the settings with a flag, then those only the environment gives. */
const SETTINGS = {
  port: { flag: 'port', value: '<n>', env: 'SANDBOX_PORT', text: [`port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)`] },
  host: { flag: 'host', value: '<addr>', env: 'SANDBOX_HOST', text: ['address to bind (default 127.0.0.1; 0.0.0.0 in the container)'] },
  seed: { flag: 'seed', value: '<text>', env: 'SANDBOX_SEED', text: ['deterministic ids and a frozen clock, for snapshot tests'] },
  merchantsFile: { flag: 'merchants', value: '<file>', env: 'SANDBOX_MERCHANTS_FILE', text: ['JSON file of extra merchants'] },
  publicUrl: { flag: 'public-url', value: '<url>', env: 'SANDBOX_PUBLIC_URL', text: ['base URL clients reach the sandbox on'] },
  logLevel: { flag: 'log-level', value: '<level>', env: 'SANDBOX_LOG_LEVEL', text: ['pino level (default info; silent turns logs off):', LOG_LEVELS.join(', ')] },
  logFormat: { flag: 'log-format', value: '<format>', env: 'SANDBOX_LOG_FORMAT', text: ['pretty or json (default: pretty on a terminal, else json)'] },
  responseValidation: { flag: 'response-validation', env: 'SANDBOX_RESPONSE_VALIDATION', text: ['validate every response against the contract'] },
  webhookTimeScale: { flag: 'webhook-time-scale', value: '<x>', env: 'SANDBOX_WEBHOOK_TIME_SCALE', text: ['multiply webhook retry delays (0.001: 5 min → 300 ms)'] },
  databaseUrl: { flag: 'database-url', value: '<url>', env: 'DATABASE_URL', text: ['PostgreSQL instead of the memory store (migrated on start)'], blankIsUnset: true },
  databaseSchema: { flag: 'database-schema', value: '<s>', env: 'SANDBOX_DATABASE_SCHEMA', text: ['PostgreSQL schema (default public; needs --database-url)'], blankIsUnset: true },
  databasePoolSize: { flag: 'database-pool-size', value: '<n>', env: 'SANDBOX_DATABASE_POOL_SIZE', text: [`PostgreSQL connections per process (default ${DEFAULT_POOL_SIZE})`] },
  memoryLimit: {
    flag: 'memory-limit',
    value: '<size>',
    env: 'SANDBOX_MEMORY_LIMIT',
    text: ['resident memory past which the memory store refuses new records', '(e.g. 2gb; default: none, only Node\'s heap limit)'],
  },
  secretKeyPepper: {
    flag: 'secret-key-pepper',
    value: '<k>',
    env: 'SANDBOX_SECRET_KEY_PEPPER',
    text: ['key of the HMAC merchant secret keys are stored as (32+ chars;', 'default: random per process, or kept in the database)'],
  },
  webhookTimeoutMs: { env: 'SANDBOX_WEBHOOK_TIMEOUT_MS', text: [`time-out of one webhook POST in ms (default ${DEFAULT_WEBHOOK_TIMEOUT_MS})`] },
  bodyLimit: { env: 'SANDBOX_BODY_LIMIT', text: [`largest request body in b, kb, mb or gb (default ${DEFAULT_BODY_LIMIT})`] },
  headersTimeoutMs: { env: 'SANDBOX_HEADERS_TIMEOUT_MS', text: [`ms for a request's headers to arrive (default ${DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs})`] },
  requestTimeoutMs: { env: 'SANDBOX_REQUEST_TIMEOUT_MS', text: [`ms for a whole request to arrive (default ${DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs})`] },
  keepAliveTimeoutMs: { env: 'SANDBOX_KEEP_ALIVE_TIMEOUT_MS', text: [`ms an idle keep-alive connection stays open (default ${DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs})`] },
  writeTimeoutMs: { env: 'SANDBOX_WRITE_TIMEOUT_MS', text: [`ms a client may read none of a response before it is dropped (default ${DEFAULT_OUTPUT_LIMITS.writeTimeoutMs})`] },
  outputBudget: { env: 'SANDBOX_OUTPUT_BUDGET', text: [`unread response bytes held over all connections (default ${DEFAULT_OUTPUT_LIMITS.budgetBytes / 1024 / 1024}mb)`] },
  journalSize: { env: 'SANDBOX_JOURNAL_SIZE', text: [`requests the journal keeps per merchant (default ${DEFAULT_JOURNAL_SIZE}; 0: off)`] },
  webhooksPerAccount: { env: 'SANDBOX_MAX_WEBHOOKS_PER_ACCOUNT', text: [`webhooks one account may have (default ${DEFAULT_LIMITS.webhooksPerAccount})`] },
  merchantsPerHour: { env: 'SANDBOX_MAX_MERCHANTS_PER_HOUR', text: [`merchants POST /sandbox/merchants creates per hour (default ${DEFAULT_LIMITS.merchantsPerHour})`] },
  merchantsTotal: { env: 'SANDBOX_MAX_MERCHANTS', text: [`merchants the sandbox holds at most (default ${DEFAULT_LIMITS.merchantsTotal})`] },
  webhookDestinations: { env: 'SANDBOX_WEBHOOK_DESTINATIONS', text: ['where webhooks may go: any (default), public, or a list', 'of hosts (hooks.example.com,*.example.com,10.0.0.5:8080)'] },
} satisfies Record<string, Setting>;
type SettingName = keyof typeof SETTINGS;
const ALL_SETTINGS: Setting[] = Object.values(SETTINGS);

const flagOf = (setting: Setting) => (setting.flag === undefined ? undefined : `--${setting.flag}`);

/** The flags the parser accepts: each setting's, and --help. */
const PARSED_OPTIONS: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
  ...Object.fromEntries(ALL_SETTINGS.flatMap((s) => (s.flag === undefined ? [] : [[s.flag, { type: s.value === undefined ? 'boolean' : 'string' }]]))),
  help: { type: 'boolean', short: 'h' },
};

/** One row of the usage's option table; `text` may run over several lines, the variable goes on the first. */
interface UsageRow {
  left: string;
  text: string[];
  env?: string;
}

const rowOf = (s: Setting): UsageRow => ({
  left: s.flag === undefined ? '' : `--${s.flag}${s.value === undefined ? '' : ` ${s.value}`}`,
  text: s.text,
  env: s.flag !== undefined && s.value === undefined ? `${s.env}=true` : s.env,
});

/** The usage's groups of rows, each after its title if it has one. */
const USAGE_GROUPS: { title?: string; rows: UsageRow[] }[] = [
  { rows: ALL_SETTINGS.filter((s) => s.flag !== undefined).map(rowOf) },
  { title: 'Set in the environment only:', rows: ALL_SETTINGS.filter((s) => s.flag === undefined).map(rowOf) },
  { rows: [{ left: '-h, --help', text: ['show this text'] }] },
];

/** The option table in three columns, each as wide as its longest entry (computed, so a value filled in never shifts one). */
function optionTable(groups: { title?: string; rows: UsageRow[] }[]): string {
  const rows = groups.flatMap((g) => g.rows);
  const leftWidth = Math.max(...rows.map((o) => o.left.length)) + 2;
  const textWidth = Math.max(...rows.flatMap((o) => o.text.map((t) => t.length))) + 2;
  const render = ({ left, text, env }: UsageRow) =>
    text.map((line, i) => `  ${(i === 0 ? left : '').padEnd(leftWidth)}${i === 0 && env ? `${line.padEnd(textWidth)}${env}` : line}`).join('\n');
  return groups.map(({ title, rows }) => [...(title === undefined ? [] : [title]), ...rows.map(render)].join('\n')).join('\n\n');
}

const USAGE = `switchyard-sandbox [options]

${optionTable(USAGE_GROUPS)}

switchyard-sandbox migrate --database-url <url>   applies the migrations and exits
`;

/** A setting's value as given, and what gave it (the flag or the variable), for an error to name. */
interface Given {
  value: string | undefined;
  from: string;
}

function integer({ value, from }: Given, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${from} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

function timeScale({ value, from }: Given): number {
  if (value === undefined || value === '') return 1;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1) throw new ConfigError(`${from} must be a number above 0 and at most 1, got "${value}"`);
  return n;
}

function destinations({ value, from }: Given): DestinationPolicy {
  if (value === undefined || value === '') return { kind: 'any' };
  const policy = parseDestinations(value);
  if (!policy) throw new ConfigError(`${from} must be any, public, or a comma-separated list of hosts (hooks.example.com,*.example.com,10.0.0.5:8080), got "${value}"`);
  return policy;
}

function size({ value, from }: Given, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const bytes = parseSize(value);
  if (bytes === undefined || bytes < 1024 * 1024) throw new ConfigError(`${from} must be a size of at least 1mb, such as 64mb, got "${value}"`);
  return bytes;
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `6mb`, `64kb`, `512` → bytes; undefined when the text is not a size. */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(text);
  if (!m) return undefined;
  return Math.floor(Number(m[1]) * (UNITS[(m[2] ?? 'b').toLowerCase()] as number));
}

/** `6 MB (6291456 bytes)`, or `1500 bytes` when no unit divides it: in the units parseSize reads, the largest that fits. */
export function describeSize(bytes: number): string {
  const unit = ['gb', 'mb', 'kb'].find((u) => bytes > 0 && bytes % (UNITS[u] as number) === 0);
  return unit ? `${bytes / (UNITS[unit] as number)} ${unit.toUpperCase()} (${bytes} bytes)` : `${bytes} bytes`;
}

/** Flags win over environment variables, which win over defaults. */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv): SandboxConfig | { help: string } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: PARSED_OPTIONS, strict: true });
  } catch (error) {
    // Node's own words ("Unknown option '--nope'"), on one line; the usage is one --help away.
    throw new ConfigError((error as Error).message.replace(/\s+/g, ' '));
  }
  const flags = parsed.values;
  if (flags.help) return { help: USAGE };
  const given = (name: SettingName): Given => {
    const setting: Setting = SETTINGS[name];
    const usable = (value: string | undefined) => (setting.blankIsUnset && value === '' ? undefined : value);
    const flag = setting.flag === undefined ? undefined : flags[setting.flag];
    const fromFlag = typeof flag === 'string' ? usable(flag) : undefined;
    return fromFlag !== undefined ? { value: fromFlag, from: `--${setting.flag}` } : { value: usable(env[setting.env]), from: setting.env };
  };
  const switchedOn = (name: SettingName) => {
    const setting: Setting = SETTINGS[name];
    return (setting.flag !== undefined && flags[setting.flag] === true) || env[setting.env] === 'true';
  };

  const logLevel = given('logLevel');
  if (logLevel.value !== undefined && !LOG_LEVELS.includes(logLevel.value)) throw new ConfigError(`${logLevel.from} must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel.value}"`);
  const logFormat = given('logFormat');
  if (logFormat.value !== undefined && !LOG_FORMATS.includes(logFormat.value as LogFormat)) throw new ConfigError(`${logFormat.from} must be one of ${LOG_FORMATS.join(', ')}, got "${logFormat.value}"`);
  const bodyLimit = given('bodyLimit');
  if (bodyLimit.value !== undefined && parseSize(bodyLimit.value) === undefined) throw new ConfigError(`${bodyLimit.from} must be a size such as 6mb or 512kb, got "${bodyLimit.value}"`);
  const memoryLimit = given('memoryLimit');
  const memoryLimitBytes = memoryLimit.value === undefined ? undefined : parseSize(memoryLimit.value);
  if (memoryLimit.value !== undefined && (memoryLimitBytes === undefined || memoryLimitBytes < MIN_MEMORY_LIMIT)) {
    throw new ConfigError(`${memoryLimit.from} must be a size of at least ${describeSize(MIN_MEMORY_LIMIT)}, such as 2gb or 512mb, got "${memoryLimit.value}"`);
  }
  const secretKeyPepper = given('secretKeyPepper');
  // The pepper is what keeps a copy of the merchants table from being tested against guesses.
  if (secretKeyPepper.value !== undefined && secretKeyPepper.value.length < MIN_PEPPER_LENGTH) {
    throw new ConfigError(`${secretKeyPepper.from} must be at least ${MIN_PEPPER_LENGTH} characters (openssl rand -hex 32 makes one)`);
  }
  const requestTimeoutMs = integer(given('requestTimeoutMs'), DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs, 100, 600_000);
  const headersTimeoutMs = integer(given('headersTimeoutMs'), Math.min(DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs, requestTimeoutMs), 100, requestTimeoutMs);
  const httpTimeouts = {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(given('keepAliveTimeoutMs'), DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs, 0, 600_000),
  };
  const outputLimits = {
    writeTimeoutMs: integer(given('writeTimeoutMs'), DEFAULT_OUTPUT_LIMITS.writeTimeoutMs, 100, 600_000),
    budgetBytes: size(given('outputBudget'), DEFAULT_OUTPUT_LIMITS.budgetBytes),
  };
  const publicUrl = given('publicUrl');
  if (publicUrl.value !== undefined && !/^https?:\/\/[^/]+/.test(publicUrl.value)) throw new ConfigError(`${publicUrl.from} must be an http(s) URL, got "${publicUrl.value}"`);
  const databaseUrl = given('databaseUrl').value;
  if (databaseUrl !== undefined) parseDatabaseUrl(databaseUrl);
  const databaseSchema = given('databaseSchema');
  if (databaseSchema.value !== undefined) checkSchema(databaseSchema.value, databaseSchema.from, databaseUrl);
  return {
    port: integer(given('port'), DEFAULT_PORT, 0, 65535),
    host: given('host').value ?? '127.0.0.1',
    seed: given('seed').value,
    merchantsFile: given('merchantsFile').value,
    publicUrl: publicUrl.value?.replace(/\/+$/, ''),
    logLevel: logLevel.value ?? 'info',
    logFormat: logFormat.value as LogFormat | undefined,
    bodyLimit: bodyLimit.value ?? DEFAULT_BODY_LIMIT,
    responseValidation: switchedOn('responseValidation'),
    maxProviderLatencyMs: 30000,
    webhookTimeScale: timeScale(given('webhookTimeScale')),
    webhookTimeoutMs: integer(given('webhookTimeoutMs'), DEFAULT_WEBHOOK_TIMEOUT_MS, 100, 60000),
    databaseUrl,
    databaseSchema: databaseSchema.value,
    databasePoolSize: integer(given('databasePoolSize'), DEFAULT_POOL_SIZE, 1, MAX_POOL_SIZE),
    secretKeyPepper: secretKeyPepper.value,
    httpTimeouts,
    outputLimits,
    journalSize: integer(given('journalSize'), DEFAULT_JOURNAL_SIZE, 0, MAX_JOURNAL_SIZE),
    webhookDestinations: destinations(given('webhookDestinations')),
    limits: {
      ...DEFAULT_LIMITS,
      webhooksPerAccount: integer(given('webhooksPerAccount'), DEFAULT_LIMITS.webhooksPerAccount, 1, MAX_WEBHOOKS_PER_ACCOUNT),
      merchantsPerHour: integer(given('merchantsPerHour'), DEFAULT_LIMITS.merchantsPerHour, 1, 1_000_000),
      merchantsTotal: integer(given('merchantsTotal'), DEFAULT_LIMITS.merchantsTotal, 1, 10_000_000),
    },
    memoryLimitBytes,
  };
}

/**
 * Refuses a schema before anything connects: the memory store has none, and the store takes only
 * names of one form (`SCHEMA_NAME`), which PostgreSQL would otherwise refuse or change at start.
 */
function checkSchema(schema: string, from: string, databaseUrl: string | undefined): void {
  const names = `${flagOf(SETTINGS.databaseSchema)} (or ${SETTINGS.databaseSchema.env})`;
  if (databaseUrl === undefined) {
    throw new ConfigError(`${from} needs a database URL: the memory store has no schema`, `pass ${flagOf(SETTINGS.databaseUrl)} postgres://… (or set ${SETTINGS.databaseUrl.env}) with it, or leave ${names} out`);
  }
  if (!SCHEMA_NAME.test(schema)) throw new ConfigError(`${from} must be a schema name of ${SCHEMA_NAME_FORM}, got "${schema}"`, `write ${names} like sandbox_ci, or leave it out for public`);
}
