import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config.js';
import { clientsFor, startSandbox } from './test-support/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'switchyard-merchants-'));

describe('merchants from a file', () => {
  it('loads them next to the demo merchant', async () => {
    const file = join(dir, 'merchants.json');
    const merchant = {
      name: 'Team A',
      public_api_key: 'sandbox_pk_team_a_0001',
      private_secret_key: 'sandbox_sk_team_a_0001',
      account_ids: ['7b0c2a4e-1f3d-4c5b-8a9e-0d1f2e3c4b5a'],
    };
    writeFileSync(file, JSON.stringify([merchant]));
    const sb = await startSandbox({ merchantsFile: file });
    try {
      const c = clientsFor(sb.url, merchant);
      const session = await c.checkout.createSession({
        body: { merchant_order_id: 'order-1', payment_description: 'Order 1', country: 'AR', account_id: merchant.account_ids[0] as string },
      });
      expect(session.status).toBe(200);
      const demo = clientsFor(sb.url, { public_api_key: 'sandbox_pk_demo_switchyard', private_secret_key: 'sandbox_sk_demo_switchyard' });
      expect((await demo.sandbox.getClock()).status).toBe(200);
      const stored = await sb.sandbox.store.findMerchantByPublicKey(merchant.public_api_key);
      expect(JSON.stringify(stored)).not.toContain(merchant.private_secret_key);
    } finally {
      await sb.stop();
    }
  });

  it('refuses a malformed file with a ConfigError naming it', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify([{ public_api_key: 'short' }]));
    await expect(startSandbox({ merchantsFile: file })).rejects.toThrow(ConfigError);
    await expect(startSandbox({ merchantsFile: join(dir, 'missing.json') })).rejects.toThrow(/cannot load merchants from/);
  });
});
