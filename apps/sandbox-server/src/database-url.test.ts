import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { describeDatabase, describeStore, parseDatabaseUrl, withoutPassword } from './database-url.js';

describe('parseDatabaseUrl', () => {
  it('reads host, port and database, with the defaults pg uses', () => {
    expect(parseDatabaseUrl('postgres://u:pw@db.internal:6543/shop')).toEqual({ host: 'db.internal', port: '6543', database: 'shop' });
    expect(parseDatabaseUrl('postgresql://u@127.0.0.1/test')).toEqual({ host: '127.0.0.1', port: '5432', database: 'test' });
    expect(parseDatabaseUrl('postgres:///test?host=/var/run/postgresql')).toMatchObject({ host: '/var/run/postgresql', database: 'test' });
  });

  it('refuses what is not a URL, and URLs of other databases, without repeating the URL (it may hold a password)', () => {
    for (const [url, words] of [
      ['not-a-url', /not a URL/],
      ['mysql://root:hunter22@127.0.0.1/shop', /mysql: URL.*PostgreSQL only/],
    ] as const) {
      const error = catching(() => parseDatabaseUrl(url));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toMatch(words);
      expect((error as ConfigError).hint).toContain('postgres://');
      expect(`${(error as ConfigError).message} ${(error as ConfigError).hint}`).not.toContain('hunter22');
    }
  });

  it('refuses a bad percent-escape in the user, password or database name with a ConfigError that does not repeat it', () => {
    for (const [url, part] of [
      ['postgres://us%zzer:pw@127.0.0.1/shop', 'user'],
      ['postgres://app:hunter22%@127.0.0.1/shop', 'password'],
      ['postgres://app:pw@127.0.0.1/sh%E0%A4op', 'database name'],
    ] as const) {
      const error = catching(() => parseDatabaseUrl(url));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toBe(`the database URL's ${part} has a bad percent-escape`);
      expect((error as ConfigError).hint).toContain('%25');
      expect(`${(error as ConfigError).message} ${(error as ConfigError).hint}`).not.toMatch(/hunter22|%zz|%E0/);
    }
  });
});

function catching(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('describeStore', () => {
  it('names the memory store, or PostgreSQL with host, database and schema but no credentials', () => {
    expect(describeStore(undefined, undefined)).toMatch(/^memory/);
    const text = describeDatabase('postgres://admin:hunter22@10.0.0.5:5432/sandbox', 'ci_42');
    expect(text).toBe('PostgreSQL 10.0.0.5:5432, database sandbox, schema ci_42');
    expect(describeStore('postgres://admin:hunter22@10.0.0.5/sandbox', undefined)).toBe('PostgreSQL 10.0.0.5:5432, database sandbox, schema public');
  });
});

describe('withoutPassword', () => {
  it('masks the password, also when percent-encoded in the URL', () => {
    expect(withoutPassword('auth failed for hunter22', 'postgres://u:hunter22@h/db')).toBe('auth failed for ***');
    expect(withoutPassword('saw p@ss', 'postgres://u:p%40ss@h/db')).toBe('saw ***');
    expect(withoutPassword('no password here', 'postgres://u@h/db')).toBe('no password here');
  });
});
