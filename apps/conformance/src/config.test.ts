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

  it('the control API is checked only on the sandbox profile when the server under test serves it', () => {
    expect(controlApiExclusion({ profile: 'sandbox', baseUrl: 'http://s' })).toBeUndefined();
    expect(controlApiExclusion({ profile: 'sandbox', baseUrl: 'http://s/', controlUrl: 'http://s' })).toBeUndefined();
    expect(controlApiExclusion({ profile: 'sandbox', baseUrl: 'http://proxy', controlUrl: 'http://s/' })).toBe('the control API answers at --control-url http://s, not at the server under test');
    expect(controlApiExclusion({ profile: 'staging', baseUrl: 'http://s' })).toBe('the staging profile does not use the /sandbox control API');
  });
});
