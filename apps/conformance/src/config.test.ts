import { describe, expect, it } from 'vitest';
import { configFromEnv, controlApiExclusion, missingInputs } from './config.js';

describe('what a profile needs and leaves out', () => {
  it('staging needs keys and an account (it cannot make tenants); the sandbox profile makes its own', () => {
    expect(missingInputs('staging', {})).toEqual(['--public-key', '--secret-key', '--account-id']);
    expect(missingInputs('staging', { publicKey: 'pk', secretKey: 'sk', accountId: 'a' })).toEqual([]);
    expect(missingInputs('sandbox', {})).toEqual([]);
  });

  it('the suite refuses the same staging run when started without the CLI', () => {
    expect(() => configFromEnv({ CONFORMANCE_BASE_URL: 'http://x', CONFORMANCE_PROFILE: 'staging', CONFORMANCE_PUBLIC_KEY: 'pk' })).toThrow('the staging profile needs --secret-key, --account-id');
    expect(() => configFromEnv({ CONFORMANCE_BASE_URL: 'http://x', CONFORMANCE_PROFILE: 'prod' })).toThrow('CONFORMANCE_PROFILE must be sandbox or staging, got prod');
  });

  it('refuses numeric settings that are not numbers, or out of range, instead of running with NaN', () => {
    const base = { CONFORMANCE_BASE_URL: 'http://x' };
    expect(() => configFromEnv({ ...base, CONFORMANCE_SEED: 'abc' })).toThrow('CONFORMANCE_SEED must be a whole number ≥ 0, got "abc"');
    expect(() => configFromEnv({ ...base, CONFORMANCE_MAX_REQUESTS: '0' })).toThrow('CONFORMANCE_MAX_REQUESTS must be a whole number ≥ 1, got "0"');
    expect(() => configFromEnv({ ...base, CONFORMANCE_RATE: '' })).toThrow('CONFORMANCE_RATE must be a number above 0, got ""');
    expect(configFromEnv({ ...base, CONFORMANCE_SEED: '7', CONFORMANCE_RATE: '2.5' })).toMatchObject({ seed: 7, ratePerSecond: 2.5 });
  });

  it('the control API is checked only on the sandbox profile when the server under test serves it', () => {
    expect(controlApiExclusion({ profile: 'sandbox', baseUrl: 'http://s' })).toBeUndefined();
    expect(controlApiExclusion({ profile: 'sandbox', baseUrl: 'http://s/', controlUrl: 'http://s' })).toBeUndefined();
    expect(controlApiExclusion({ profile: 'sandbox', baseUrl: 'http://proxy', controlUrl: 'http://s/' })).toBe('the control API answers at --control-url http://s, not at the server under test');
    expect(controlApiExclusion({ profile: 'staging', baseUrl: 'http://s' })).toBe('the staging profile does not use the /sandbox control API');
  });
});
