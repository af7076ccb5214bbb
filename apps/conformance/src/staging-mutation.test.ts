import { describe, expect, it } from 'vitest';
import { createClient } from '@switchyard/client';
import { runCli } from './test-support/cli.js';
import { CATCHES, runArgs, STAGING_CATCHES } from './test-support/catches.js';
import { startFaultProxy } from './test-support/fault-proxy.js';
import { useSandbox } from './test-support/sandbox.js';
import { startWithoutControlApi } from './test-support/without-control-api.js';

const sandbox = useSandbox();

/** Keys of a tenant made directly on the sandbox, as a staging's keys are handed out: the runs never make their own. */
async function stagingKeys(): Promise<string[]> {
  const m = await createClient({ baseUrl: sandbox.url(), publicApiKey: 'none', privateSecretKey: 'none' }).sandbox.createMerchant({ body: { name: 'staging-mutation' } });
  return ['--profile', 'staging', '--public-key', m.public_api_key, '--secret-key', m.private_secret_key, '--account-id', m.account_ids[0] as string, '--rate', '1000'];
}

describe('the staging profile has teeth: state and idempotency faults behind a server without the control API', () => {
  it('covers at least 15 faults, each one the sandbox-profile suite knows', () => {
    expect(STAGING_CATCHES.length).toBeGreaterThanOrEqual(15);
    expect(new Set(STAGING_CATCHES).size).toBe(STAGING_CATCHES.length);
    for (const fault of STAGING_CATCHES) expect(CATCHES.map((c) => c[0])).toContain(fault);
  });

  const rows = STAGING_CATCHES.map((fault) => CATCHES.find((c) => c[0] === fault) as (typeof CATCHES)[number]);
  it.concurrent.each(rows)('%s → %s fails on %s, on the staging profile', async (...c) => {
    const [fault, check, operationId] = c;
    const staging = await startWithoutControlApi(sandbox.url());
    const proxy = await startFaultProxy(staging.url, fault);
    try {
      const { code, report } = await runCli(['--base-url', proxy.url, ...(await stagingKeys()), ...runArgs(c)]);
      expect(report.errors).toEqual([]);
      const failed = report.tests.filter((t) => t.outcome === 'fail');
      expect(failed.map((t) => `${t.operationId} › ${t.check}`)).toContain(`${operationId} › ${check}`);
      expect(code).toBe(1);
      expect(staging.controlRequests).toEqual([]);
    } finally {
      await proxy.close();
      await staging.close();
    }
  });
});
