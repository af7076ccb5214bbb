import { createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';
import { createClient, type SwitchyardClient } from '@switchyard/client';

export interface World {
  url: string;
  /** The default-style client of a fresh merchant. */
  client: SwitchyardClient;
  accountId: string;
  stop(): Promise<void>;
}

/** A sandbox on an ephemeral port and a client for a fresh merchant on it. */
export async function startWorld(): Promise<World> {
  const sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'silent', responseValidation: true });
  const url = await sandbox.start();
  const anonymous = createClient({ baseUrl: url, publicApiKey: 'none', privateSecretKey: 'none' });
  const merchant = await anonymous.sandbox.createMerchant({ body: { name: 'e2e' } });
  const client = createClient({ baseUrl: url, publicApiKey: merchant.public_api_key, privateSecretKey: merchant.private_secret_key, validateResponses: true });
  return { url, client, accountId: merchant.account_ids[0] as string, stop: () => sandbox.stop() };
}
