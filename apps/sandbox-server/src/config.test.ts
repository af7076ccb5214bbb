import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PORT, describeSize, loadConfig, parseSize } from './config.js';

/** What `run` threw (it must throw). */
function thrown(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    return error as ConfigError;
  }
  throw new Error('nothing was thrown');
}

describe('loadConfig', () => {
  it('defaults to port 4010 on loopback', () => {
    expect(loadConfig([], {})).toMatchObject({ port: DEFAULT_PORT, host: '127.0.0.1', seed: undefined, responseValidation: false });
  });
  it('lets flags win over the environment', () => {
    expect(loadConfig(['--port', '5000'], { SANDBOX_PORT: '6000', SANDBOX_HOST: '0.0.0.0' })).toMatchObject({ port: 5000, host: '0.0.0.0' });
  });
  it('strips a trailing slash from the public URL', () => {
    expect(loadConfig(['--public-url', 'https://sandbox.example.com/'], {})).toMatchObject({ publicUrl: 'https://sandbox.example.com' });
  });
  it('rejects bad values with a ConfigError', () => {
    expect(() => loadConfig(['--port', '70000'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--log-level', 'loud'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--nope'], {})).toThrow(ConfigError);
    expect(() => loadConfig([], { SANDBOX_BODY_LIMIT: 'huge' })).toThrow(/SANDBOX_BODY_LIMIT/);
    expect(() => loadConfig([], { SANDBOX_SECRET_KEY_PEPPER: 'short' })).toThrow(/at least 32 characters/);
  });
  it('takes the secret key pepper from the flag or the environment', () => {
    const pepper = 'p'.repeat(32);
    expect(loadConfig(['--secret-key-pepper', pepper], {})).toMatchObject({ secretKeyPepper: pepper });
    expect(loadConfig([], { SANDBOX_SECRET_KEY_PEPPER: pepper })).toMatchObject({ secretKeyPepper: pepper });
    expect(loadConfig([], {})).toMatchObject({ secretKeyPepper: undefined });
  });
  it('reads the HTTP time-outs, the headers one never above the request one', () => {
    expect(loadConfig([], {})).toMatchObject({ httpTimeouts: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000 } });
    const env = { SANDBOX_HEADERS_TIMEOUT_MS: '2000', SANDBOX_REQUEST_TIMEOUT_MS: '4000', SANDBOX_KEEP_ALIVE_TIMEOUT_MS: '1000' };
    expect(loadConfig([], env)).toMatchObject({ httpTimeouts: { headersTimeoutMs: 2000, requestTimeoutMs: 4000, keepAliveTimeoutMs: 1000 } });
    expect(loadConfig([], { SANDBOX_REQUEST_TIMEOUT_MS: '5000' })).toMatchObject({ httpTimeouts: { headersTimeoutMs: 5000, requestTimeoutMs: 5000 } });
    expect(() => loadConfig([], { SANDBOX_HEADERS_TIMEOUT_MS: '8000', SANDBOX_REQUEST_TIMEOUT_MS: '4000' })).toThrow(/SANDBOX_HEADERS_TIMEOUT_MS must be an integer from 100 to 4000/);
  });
  it('reads the request journal size: 200 by default, 0 turns it off, at most 1000', () => {
    expect(loadConfig([], {})).toMatchObject({ journalSize: 200 });
    expect(loadConfig([], { SANDBOX_JOURNAL_SIZE: '0' })).toMatchObject({ journalSize: 0 });
    expect(() => loadConfig([], { SANDBOX_JOURNAL_SIZE: '1001' })).toThrow(/SANDBOX_JOURNAL_SIZE must be an integer from 0 to 1000/);
  });

  it('reads the memory limit from the flag or the environment: none by default, a size of at least 128 MB', () => {
    expect(loadConfig([], {})).toMatchObject({ memoryLimitBytes: undefined });
    expect(loadConfig(['--memory-limit', '2gb'], { SANDBOX_MEMORY_LIMIT: '512mb' })).toMatchObject({ memoryLimitBytes: 2 * 1024 ** 3 });
    expect(loadConfig([], { SANDBOX_MEMORY_LIMIT: '512mb' })).toMatchObject({ memoryLimitBytes: 512 * 1024 ** 2 });
    expect(() => loadConfig(['--memory-limit', '64mb'], {})).toThrow('--memory-limit must be a size of at least 128 MB (134217728 bytes), such as 2gb or 512mb, got "64mb"');
    expect(() => loadConfig([], { SANDBOX_MEMORY_LIMIT: 'lots' })).toThrow(/^SANDBOX_MEMORY_LIMIT must be a size/);
  });

  it('reads the PostgreSQL pool size from the flag or the environment: 10 by default, 1 to 500', () => {
    expect(loadConfig([], {})).toMatchObject({ databasePoolSize: 10 });
    expect(loadConfig(['--database-pool-size', '24'], { SANDBOX_DATABASE_POOL_SIZE: '4' })).toMatchObject({ databasePoolSize: 24 });
    expect(loadConfig([], { SANDBOX_DATABASE_POOL_SIZE: '4' })).toMatchObject({ databasePoolSize: 4 });
    expect(() => loadConfig(['--database-pool-size', '0'], {})).toThrow(/--database-pool-size must be an integer from 1 to 500, got "0"/);
  });

  it('names in an error the flag or the variable the bad value came from', () => {
    expect(() => loadConfig(['--port', 'eighty'], { SANDBOX_PORT: '5000' })).toThrow(/^--port must be an integer/);
    expect(() => loadConfig([], { SANDBOX_PORT: 'eighty' })).toThrow(/^SANDBOX_PORT must be an integer/);
    expect(() => loadConfig([], { SANDBOX_DATABASE_POOL_SIZE: '0' })).toThrow(/^SANDBOX_DATABASE_POOL_SIZE must be/);
    expect(() => loadConfig([], { SANDBOX_LOG_LEVEL: 'loud' })).toThrow('SANDBOX_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"');
    expect(() => loadConfig(['--webhook-time-scale', '2'], {})).toThrow(/^--webhook-time-scale must be a number/);
    expect(() => loadConfig([], { SANDBOX_BODY_LIMIT: '6MiB' })).toThrow('SANDBOX_BODY_LIMIT must be a size such as 6mb or 512kb, got "6MiB"');
  });

  it('prints help for --help and -h', () => {
    expect(loadConfig(['--help'], {})).toMatchObject({ help: expect.stringContaining('--seed') });
    expect(loadConfig(['-h'], {})).toEqual(loadConfig(['--help'], {}));
  });
  it('refuses an unknown flag in one line that points at --help', () => {
    let error: unknown;
    try {
      loadConfig(['--nope'], {});
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ message: "Unknown option '--nope'", hint: expect.stringContaining('--help') });
  });
  it('checks the database URL before anything connects, from the flag or DATABASE_URL', () => {
    expect(loadConfig(['--database-url', 'postgres://u@127.0.0.1/test'], {})).toMatchObject({ databaseUrl: 'postgres://u@127.0.0.1/test' });
    expect(() => loadConfig(['--database-url', 'not-a-url'], {})).toThrow(/not a URL/);
    expect(() => loadConfig([], { DATABASE_URL: 'mysql://root:pw@127.0.0.1/shop' })).toThrow(/mysql: URL/);
    expect(loadConfig([], { DATABASE_URL: '' })).toMatchObject({ databaseUrl: undefined });
  });

  describe('the database schema', () => {
    const url = 'postgres://u@127.0.0.1/test';

    it('takes one from the flag or SANDBOX_DATABASE_SCHEMA, keywords too (the store quotes it), up to 63 characters', () => {
      expect(loadConfig(['--database-url', url, '--database-schema', 'ci_42'], { SANDBOX_DATABASE_SCHEMA: 'other' })).toMatchObject({ databaseSchema: 'ci_42' });
      expect(loadConfig([], { DATABASE_URL: url, SANDBOX_DATABASE_SCHEMA: 'ci_42' })).toMatchObject({ databaseSchema: 'ci_42' });
      for (const name of ['user', 'order', '_x', 'a'.repeat(63)]) expect(loadConfig(['--database-url', url, '--database-schema', name], {})).toMatchObject({ databaseSchema: name });
      expect(loadConfig(['--database-url', url], {})).toMatchObject({ databaseSchema: undefined });
    });

    it('refuses a name PostgreSQL would refuse or change before anything connects, naming --database-schema in the hint', () => {
      for (const name of ['bad"schema', 'Sandbox', '1st', 'pg_sandbox', 'a'.repeat(64), 'with space', 'ünï']) {
        const error = thrown(() => loadConfig(['--database-url', url, '--database-schema', name], {}));
        expect(error, name).toBeInstanceOf(ConfigError);
        expect(error.message).toBe(`--database-schema must be a schema name of 1 to 63 lower-case letters, digits and _, not starting with a digit or pg_, got "${name}"`);
        expect(error.hint).toContain('--database-schema (or SANDBOX_DATABASE_SCHEMA)');
        expect(error.hint).not.toContain('--database-url');
      }
      expect(thrown(() => loadConfig([], { DATABASE_URL: url, SANDBOX_DATABASE_SCHEMA: 'bad"schema' })).message).toMatch(/^SANDBOX_DATABASE_SCHEMA must be a schema name/);
    });

    it('refuses a schema without a database URL: the memory store has none', () => {
      const error = thrown(() => loadConfig(['--database-schema', 'ci_42'], {}));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toBe('--database-schema needs a database URL: the memory store has no schema');
      expect(error.hint).toContain('--database-url');
      expect(thrown(() => loadConfig([], { SANDBOX_DATABASE_SCHEMA: 'ci_42', DATABASE_URL: '' })).message).toMatch(/^SANDBOX_DATABASE_SCHEMA needs a database URL/);
      // Empty, as a compose file may leave both: no schema, no database, the memory store.
      expect(loadConfig([], { SANDBOX_DATABASE_SCHEMA: '', DATABASE_URL: '' })).toMatchObject({ databaseUrl: undefined, databaseSchema: undefined });
    });
  });
});

describe('parseSize', () => {
  it('reads bytes and binary units, case-insensitively', () => {
    expect(parseSize('512')).toBe(512);
    expect(parseSize('64kb')).toBe(65_536);
    expect(parseSize('6MB')).toBe(6 * 1024 * 1024);
    expect(parseSize('1.5 kb')).toBe(1536);
  });
  it('refuses what is not a size', () => {
    expect(parseSize('')).toBeUndefined();
    expect(parseSize('6 megabytes')).toBeUndefined();
    expect(parseSize('-1kb')).toBeUndefined();
  });
});

describe('the usage text', () => {
  const usage = (loadConfig(['--help'], {}) as { help: string }).help;
  // The option table: the lines that start with a flag, and the lines that continue one.
  const table = usage.split('\n').filter((line) => /^ {2}\S/.test(line) || /^ {3,}\S/.test(line));
  const column = (line: string, pattern: RegExp) => line.search(pattern);

  it('lists every log level the sandbox takes, silent included', () => {
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) expect(usage).toMatch(new RegExp(`\\b${level}\\b`));
    expect(() => loadConfig(['--log-level', 'silent'], {})).not.toThrow();
  });

  it('names every variable config.ts reads', () => {
    const source = readFileSync(new URL('config.ts', import.meta.url), 'utf8');
    const variables = new Set(source.match(/\b(?:SANDBOX_[A-Z_]+|DATABASE_URL)\b/g));
    expect(variables.size).toBeGreaterThan(15);
    for (const variable of variables) expect(usage).toMatch(new RegExp(`\\b${variable}\\b`));
  });

  it('lists the settings of the table in docs/sandbox.md, each with its flag and variable, and no other', () => {
    // A setting as a pair: `--port SANDBOX_PORT`, or the variable alone when it has no flag.
    const pair = (flag: string | undefined, variable: string | undefined) => [flag, variable?.replace(/=.*$/, '')].filter(Boolean).join(' ');
    const docs = readFileSync(new URL('../../../docs/sandbox.md', import.meta.url), 'utf8');
    const header = docs.indexOf('| Flag | Environment | Default | Meaning |');
    expect(header).toBeGreaterThan(0);
    const rows = docs.slice(header).split('\n').slice(2);
    const documented = rows.slice(0, rows.findIndex((line) => !line.startsWith('|'))).map((line) => {
      const [flag, variable] = line.split('|').slice(1, 3).map((cell) => /`([^`]+)`/.exec(cell)?.[1]?.split(' ')[0]);
      return pair(flag, variable);
    });
    const listed = table.flatMap((line) => {
      const variable = /\b((?:SANDBOX_[A-Z_]+|DATABASE_URL)(?:=\S+)?)$/.exec(line)?.[1];
      return variable ? [pair(/^ {2}(--[a-z-]+)/.exec(line)?.[1], variable)] : [];
    });
    expect(documented.length).toBeGreaterThan(15);
    expect([...listed].sort()).toEqual([...documented].sort());
  });

  it('lines up its option table in three columns: flags, descriptions, environment variables', () => {
    expect(table.length).toBeGreaterThan(10);
    // Every description (and every continued one) starts where the first does.
    const descriptions = new Set(table.map((line) => column(line, /(?<=^ {2}(?:\S+(?: \S+)*)? {2,})\S/)));
    expect(descriptions.size).toBe(1);
    const envColumns = table.filter((line) => /\b(?:SANDBOX_[A-Z_]+|DATABASE_URL)\b/.test(line)).map((line) => column(line, /\b(?:SANDBOX_[A-Z_]+|DATABASE_URL)(?:=\S+)?$/));
    expect(envColumns.length).toBeGreaterThan(10);
    expect(new Set(envColumns)).toEqual(new Set([envColumns[0]]));
    // Each variable has at least two spaces before it: no description runs into it.
    for (const line of table) expect(line).not.toMatch(/\S \b(?:SANDBOX_[A-Z_]+|DATABASE_URL)/);
  });
});

describe('describeSize', () => {
  it('writes the largest 1024-based unit that divides the size, with the bytes', () => {
    expect(describeSize(6 * 1024 ** 2)).toBe('6 MB (6291456 bytes)');
    expect(describeSize(512 * 1024)).toBe('512 KB (524288 bytes)');
    expect(describeSize(1024 ** 3)).toBe('1 GB (1073741824 bytes)');
    expect(describeSize(1536 * 1024)).toBe('1536 KB (1572864 bytes)');
    expect(describeSize(1500)).toBe('1500 bytes');
    expect(describeSize(0)).toBe('0 bytes');
  });
});
