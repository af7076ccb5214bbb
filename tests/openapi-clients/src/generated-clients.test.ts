/**
 * Clients generated from openapi.json by tools nobody here wrote compile under `tsc --strict` and
 * make one call per domain against a real sandbox, each answered with the route's success status.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@switchyard/client';
import { contract, listRoutes } from '@switchyard/contract';
import { fixtures } from '@switchyard/contract/fixtures';
import { createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';
import type { Merchant, StatusByDomain } from './callers/merchant.js';
import { generateHeyApiClient, generateOpenapiTypescriptTypes } from './generate.js';

const require = createRequire(import.meta.url);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** The operation each caller makes per domain, and so the status it must answer: the route's own 2xx. */
const CALLS: Record<keyof StatusByDomain, string> = {
  customers: 'createCustomer',
  'payment-methods': 'enrollPaymentMethodDirect',
  checkout: 'createCheckoutSession',
  payments: 'createPayment',
  subscriptions: 'createSubscription',
  marketplace: 'createRecipient',
  banking: 'createBankingEntity',
  webhooks: 'listWebhooks',
};
const expected = Object.fromEntries(
  Object.entries(CALLS).map(([domain, operationId]) => {
    const route = listRoutes(contract).find((r) => r.meta.operationId === operationId);
    if (route?.meta.domain !== domain) throw new Error(`${operationId} is no ${domain} route`);
    return [domain, Number(Object.keys(route.route.responses).find((s) => s.startsWith('2')))];
  }),
);

/** `tsc --strict` over a caller and everything it imports (the generated code among it); the diagnostics, one a line. */
function compileStrict(caller: string): string {
  const tsc = require.resolve('typescript/bin/tsc');
  const args = ['--strict', '--noEmit', '--target', 'ES2022', '--lib', 'ES2023,DOM', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--skipLibCheck', '--types', 'node', caller];
  const run = spawnSync(process.execPath, [tsc, ...args], { cwd: packageDir, encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`.trim();
}

/** The contract's example requests for a merchant's account: what a consumer's own data would be. */
function requestsFor({ accountId: account_id }: Merchant) {
  return {
    enrollDirect: () => ({ ...fixtures.enrollDirect(), account_id }),
    createCheckoutSession: () => ({ ...fixtures.createCheckoutSession(), account_id }),
    createPayment: (checkoutSession: string, vaultedToken: string) => ({
      ...fixtures.createPayment(checkoutSession),
      account_id,
      payment_method: { type: 'CARD', vaulted_token: vaultedToken },
    }),
    createSubscription: (vaultedToken: string) => ({ ...fixtures.createSubscription(vaultedToken), account_id }),
    createRecipient: () => ({ ...fixtures.createRecipient(), account_id }),
    createEntity: () => ({ ...fixtures.createIndividualEntity(), account_id }),
  };
}

/** A caller module, loaded by URL: the package's own typecheck runs before the generated code it imports exists. */
async function caller(name: 'hey-api' | 'openapi-typescript'): Promise<(baseUrl: string, merchant: Merchant, requests: ReturnType<typeof requestsFor>) => Promise<StatusByDomain>> {
  const module = (await import(new URL(`./callers/${name}.ts`, import.meta.url).href)) as { callEveryDomain: never };
  return module.callEveryDomain;
}

/**
 * Generating the clients and compiling them with tsc take about 15 s each on an idle 2-CPU
 * machine, and passed the preset's 60 s while two other test suites ran beside this one: these
 * limits detect a hang, they measure nothing.
 */
const TOOL_TIMEOUT_MS = 600_000;

let stop: () => Promise<void>;
let baseUrl: string;
async function freshMerchant(name: string): Promise<Merchant> {
  const merchant = await createClient({ baseUrl, publicApiKey: 'none', privateSecretKey: 'none' }).sandbox.createMerchant({ body: { name } });
  return { publicApiKey: merchant.public_api_key, privateSecretKey: merchant.private_secret_key, accountId: merchant.account_ids[0] as string };
}

beforeAll(async () => {
  await Promise.all([generateHeyApiClient(), generateOpenapiTypescriptTypes()]);
  const sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'silent' });
  baseUrl = await sandbox.start();
  stop = () => sandbox.stop();
}, TOOL_TIMEOUT_MS);
afterAll(() => stop?.());

// The calls run first, then the compilations: the sandbox then sees no idle gap of a compilation's length between calls.
describe('one call per domain against the sandbox, each answered with its success status', () => {
  it.each(['hey-api', 'openapi-typescript'] as const)('through the %s client', async (name) => {
    const merchant = await freshMerchant(name);
    expect(await (await caller(name))(baseUrl, merchant, requestsFor(merchant))).toEqual(expected);
  });
});

describe('tsc --strict', () => {
  it('compiles the client @hey-api/openapi-ts generates, and a caller of it', () => {
    expect(compileStrict('src/callers/hey-api.ts')).toBe('');
  }, TOOL_TIMEOUT_MS);

  it('compiles the types openapi-typescript generates, and a caller of them with openapi-fetch', () => {
    expect(compileStrict('src/callers/openapi-typescript.ts')).toBe('');
  }, TOOL_TIMEOUT_MS);
});
