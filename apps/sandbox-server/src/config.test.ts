import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PORT, loadConfig, parseSize } from './config.js';

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
    expect(loadConfig([], {})).toMatchObject({ httpTimeouts: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 } });
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

  it('reads the PostgreSQL pool size from the flag or the environment: 10 by default, 1 to 500', () => {
    expect(loadConfig([], {})).toMatchObject({ databasePoolSize: 10 });
    expect(loadConfig(['--database-pool-size', '24'], { SANDBOX_DATABASE_POOL_SIZE: '4' })).toMatchObject({ databasePoolSize: 24 });
    expect(loadConfig([], { SANDBOX_DATABASE_POOL_SIZE: '4' })).toMatchObject({ databasePoolSize: 4 });
    expect(() => loadConfig(['--database-pool-size', '0'], {})).toThrow(/--database-pool-size \/ SANDBOX_DATABASE_POOL_SIZE must be an integer from 1 to 500, got "0"/);
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
