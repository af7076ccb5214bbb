import { parseArgs } from 'node:util';
import { ConfigError } from './config-error.js';
import { parseDatabaseUrl } from './database-url.js';

export { ConfigError } from './config-error.js';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './http/http-server.js';
import { DEFAULT_POOL_SIZE, SCHEMA_NAME, SCHEMA_NAME_FORM } from './store/postgres.js';

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
  /** Resident bytes past which the memory store refuses new records (docs/sandbox.md, "Memory ceiling"); none: only V8's heap limit. */
  memoryLimitBytes: number | undefined;
}

export const DEFAULT_PORT = 4010;
const DEFAULT_JOURNAL_SIZE = 200;
/** Per merchant; with the journal's merchant and body caps this bounds its memory (docs/sandbox.md, "Request journal"). */
const MAX_JOURNAL_SIZE = 1000;
const MIN_PEPPER_LENGTH = 32;
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
  journalSize: { env: 'SANDBOX_JOURNAL_SIZE', text: [`requests the journal keeps per merchant (default ${DEFAULT_JOURNAL_SIZE}; 0: off)`] },
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
    journalSize: integer(given('journalSize'), DEFAULT_JOURNAL_SIZE, 0, MAX_JOURNAL_SIZE),
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
