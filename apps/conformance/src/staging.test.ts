import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@switchyard/client';
import { removeScratchDirs, scratchDir } from '@switchyard/tooling/scratch';
import { DOC } from './test-support/catches.js';
import { LATENCY_NOT_JUDGED, runCli, spawnCli } from './test-support/cli.js';
import { useSandbox } from './test-support/sandbox.js';
import { startWithoutControlApi } from './test-support/without-control-api.js';

const sandbox = useSandbox();
let staging: Awaited<ReturnType<typeof startWithoutControlApi>>;
beforeAll(async () => {
  staging = await startWithoutControlApi(sandbox.url());
});
afterAll(() => staging.close());
afterAll(removeScratchDirs);

/** A tenant made directly on the sandbox, as a staging's keys are handed out: the runs only get its keys and account. */
async function tenant() {
  const m = await createClient({ baseUrl: sandbox.url(), publicApiKey: 'none', privateSecretKey: 'none' }).sandbox.createMerchant({ body: { name: 'staging' } });
  return { publicKey: m.public_api_key, secretKey: m.private_secret_key, accountId: m.account_ids[0] as string };
}

const keyArgs = (t: Awaited<ReturnType<typeof tenant>>) => ['--public-key', t.publicKey, '--secret-key', t.secretKey, '--account-id', t.accountId];

describe('the staging profile against a correct sandbox with no /sandbox control API at all', () => {
  it('tests money through the public API, never calls /sandbox, and says why each check it cannot run is skipped', async () => {
    const before = staging.controlRequests.length;
    const { code, report } = await runCli(['--base-url', staging.url, '--profile', 'staging', ...keyArgs(await tenant()), '--rate', '1000', ...LATENCY_NOT_JUDGED]);
    expect(report.errors).toEqual([]);
    expect(report.tests.filter((t) => t.outcome === 'fail').map((t) => `${t.operationId} › ${t.check} › ${t.detail}: ${t.message?.slice(0, 300)}`)).toEqual([]);
    expect(code).toBe(0);
    expect(staging.controlRequests.length).toBe(before);
    const passed = new Set(report.tests.filter((t) => t.outcome === 'pass').map((t) => `${t.operationId} › ${t.check}${t.detail ? ` › ${t.detail}` : ''}`));
    for (const name of [
      'createPayment › positive_data_acceptance',
      'captureAuthorization › positive_data_acceptance',
      'refundTransaction › positive_data_acceptance',
      'cancelOrRefundPayment › positive_data_acceptance',
      'createSubscription › positive_data_acceptance',
      'createPayment › idempotency_replay › the same key gives the same status and body, with the replay header',
      'createPayment › idempotency_replay › the same key with another valid body never creates a second payment',
      'createPayment › idempotency_in_flight › concurrent duplicates create one payment',
      'refundTransaction › idempotency_in_flight › concurrent duplicates refund once',
      'refundTransaction › missing_required_header',
      'refundTransaction › state_transition › partial then full refund',
      'refundTransaction › amount_invariants › exact decimals and never more than captured',
      'captureAuthorization › state_transition › authorize, capture in full, a second capture refused',
      'cancelOrRefundPayment › state_transition › cancels uncaptured, refunds captured',
      'createPayment › state_transition › a declining test card gives a DECLINED payment that cannot be refunded',
      'createCustomer › business_rules › a duplicate merchant_customer_id is refused',
      'createCustomer › state_transition › a customer, its session, a card enrolled in it and one vaulted for it',
      'createCheckoutSession › state_transition › a session is paid for its amount and the payment names it',
      'createPaymentLink › state_transition › a link answers what it was made with, and each link is its own',
    ]) {
      expect(passed, name).toContain(name);
    }
    // What still needs the control API (or a fixture) is skipped, and says which.
    const skipped = report.tests.filter((t) => t.outcome === 'skip');
    for (const t of skipped) expect(t.message, `${t.operationId} › ${t.check}`).toMatch(/control API|fixture|webhook receiver|validating proxy/);
    expect(report.notExercised.sort()).toEqual(['PATCH /v1/banking/accounts/:account_id', 'POST /v1/split-marketplace/transfers', 'POST /v1/split-marketplace/transfers/:transfer_id/reverse', 'POST /v1/subscriptions/:id/retry'].sort());
  });

  it('keeps to the request budget it is given, and skips what the budget leaves out, saying so', async () => {
    const counter = await startWithoutControlApi(sandbox.url());
    try {
      const { code, report } = await runCli(['--base-url', counter.url, '--profile', 'staging', ...keyArgs(await tenant()), '--rate', '1000', '--max-requests', '40', '--only', 'payments']);
      // The suite's 40, and the one probe the CLI sends before the run to see that the server answers.
      expect(counter.requests).toBeLessThanOrEqual(41);
      expect(report.tests.filter((t) => t.outcome === 'fail')).toEqual([]);
      expect(report.tests.some((t) => t.outcome === 'skip' && t.message?.includes('the request budget of 40 (--max-requests) is used up'))).toBe(true);
      expect(code).toBe(0);
    } finally {
      await counter.close();
    }
  });

  it('refuses a budget or a rate that is not a positive number, before sending anything', async () => {
    const args = ['--base-url', staging.url, '--profile', 'staging', '--public-key', 'pk', '--secret-key', 'sk', '--account-id', '4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31'];
    expect(await spawnCli([...args, '--max-requests', '0'])).toMatchObject({ code: 2, stderr: 'switchyard-conformance: --max-requests must be a whole number above 0, got 0\n' });
    expect(await spawnCli([...args, '--rate', 'fast'])).toMatchObject({ code: 2, stderr: 'switchyard-conformance: --rate must be a number above 0, got fast\n' });
  });
});

/** The walk-through of docs/conformance.md, "Running against your staging", between these markers. */
const WALKTHROUGH = /<!-- staging-walkthrough:start -->([\s\S]*?)<!-- staging-walkthrough:end -->/;

describe('docs/conformance.md, "Running against your staging"', () => {
  it('runs end to end as written, against a sandbox with no control API', async () => {
    const section = WALKTHROUGH.exec(readFileSync(DOC, 'utf8'))?.[1] ?? '';
    const fixtures = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    const command = /^\s*npx switchyard-conformance (.+)$/m.exec(section)?.[1];
    expect(fixtures).toBeDefined();
    expect(command).toBeDefined();
    const dir = scratchDir('walkthrough-');
    writeFileSync(join(dir, 'staging-fixtures.json'), fixtures as string);
    const t = await tenant();
    // The variables the walk-through exports, with this stand-in's values; the arguments as written.
    const env = { STAGING_URL: staging.url, CONFORMANCE_PUBLIC_KEY: t.publicKey, CONFORMANCE_SECRET_KEY: t.secretKey, CONFORMANCE_ACCOUNT_ID: t.accountId };
    const args = (command as string).split(/\s+/).map((a) => a.replace(/^"?\$([A-Z_]+)"?$/, (_, name: keyof typeof env) => env[name]));
    const before = staging.controlRequests.length;
    const { code, stderr } = await spawnCli(args, { cwd: dir, env });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const junit = join(dir, 'conformance-reports', 'conformance.xml');
    expect(existsSync(junit)).toBe(true);
    expect(/<testsuites [^>]*failures="0"/.test(readFileSync(junit, 'utf8'))).toBe(true);
    expect(staging.controlRequests.length).toBe(before);
  });
});
