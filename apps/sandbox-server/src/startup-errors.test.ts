import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { databaseError, listenError, oneLine, StartupError } from './startup-errors.js';

const errno = (code: string, message = `${code} happened`) => Object.assign(new Error(message), { code });

describe('listenError', () => {
  it('explains a port in use, a privileged port and an address that is not ours', () => {
    expect(listenError(errno('EADDRINUSE'), '127.0.0.1', 4010)).toMatchObject({ message: 'port 4010 on 127.0.0.1 is already in use', hint: expect.stringContaining('--port 0') });
    expect(listenError(errno('EACCES'), '127.0.0.1', 80)).toMatchObject({ message: expect.stringContaining('port 80'), hint: expect.stringContaining('above 1023') });
    expect(listenError(errno('EADDRNOTAVAIL'), '10.9.9.9', 4010)).toMatchObject({ message: '10.9.9.9 is not an address of this machine' });
  });

  it('leaves other errors as they are', () => {
    const other = new TypeError('bug');
    expect(listenError(other, '127.0.0.1', 4010)).toBe(other);
  });
});

describe('databaseError', () => {
  const url = 'postgres://app:hunter22@db.internal:5432/shop';

  it('names where it tried, what the driver said and a hint for the cause, never the password', () => {
    const refused = databaseError(errno('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432'), url) as StartupError;
    expect(refused).toBeInstanceOf(StartupError);
    expect(refused.message).toBe('cannot use PostgreSQL at db.internal:5432, database shop: connect ECONNREFUSED 10.0.0.5:5432');
    expect(refused.hint).toContain('running');
    expect((databaseError(errno('3D000', 'database "shop" does not exist'), url) as StartupError).hint).toContain('createdb shop');
    const auth = databaseError(errno('28P01', 'password authentication failed, tried hunter22'), url) as StartupError;
    expect(auth.hint).toContain('user and password');
    expect(auth.message).not.toContain('hunter22');
  });

  it('uses the code when Node gives no message (a refused name with several addresses)', () => {
    const aggregate = Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' });
    expect((databaseError(aggregate, url) as Error).message).toBe('cannot use PostgreSQL at db.internal:5432, database shop: ECONNREFUSED');
  });

  it('keeps configuration errors (a bad merchants file) as they are', () => {
    const config = new ConfigError('cannot load merchants from x.json');
    expect(databaseError(config, url)).toBe(config);
  });
});

describe('oneLine', () => {
  it('prints message and hint on one line; exit 2 for configuration, 1 for the environment', () => {
    expect(oneLine(new ConfigError('Unknown option \'--nope\''))).toEqual({
      line: "switchyard-sandbox: Unknown option '--nope'. Hint: switchyard-sandbox --help lists the options.",
      exitCode: 2,
    });
    expect(oneLine(new StartupError('port 1 is\nin use.', 'pick another'))).toEqual({ line: 'switchyard-sandbox: port 1 is in use. Hint: pick another.', exitCode: 1 });
  });

  it('has nothing to say about an unexpected error, whose stack the CLI prints', () => {
    expect(oneLine(new Error('bug'))).toBeUndefined();
  });
});
