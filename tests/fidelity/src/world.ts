import { createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';
import { createClient, type SwitchyardClient } from '@switchyard/client';
import { PUBLIC_KEY_HEADER, SECRET_KEY_HEADER } from '@switchyard/contract';

export interface Merchant {
  client: SwitchyardClient;
  accountId: string;
  /** The headers that authenticate a raw request as this merchant. */
  headers: Record<string, string>;
}

export interface World {
  url: string;
  /** A fresh merchant, so no example sees another's resources. */
  merchant(): Promise<Merchant>;
  stop(): Promise<void>;
}

/**
 * A sandbox as users run it (default configuration) on an ephemeral port, but for the keep-alive
 * window: the sandbox shares this process's event loop, so a long synchronous step between two
 * requests (compiling upstream's schemas on a busy machine) can run past it, and the server then
 * closes a socket the client has just reused (ECONNRESET, seen in a full run at a load of 20).
 */
export async function startWorld(): Promise<World> {
  const config = loadConfig([], {}) as SandboxConfig;
  const sandbox = await createSandbox({ ...config, port: 0, logLevel: 'silent', httpTimeouts: { ...config.httpTimeouts, keepAliveTimeoutMs: 600_000 } });
  const url = await sandbox.start();
  // Retries off: every answer the suite sees is the sandbox's first one.
  const anonymous = createClient({ baseUrl: url, publicApiKey: 'none', privateSecretKey: 'none', maxRetries: 0 });
  return {
    url,
    async merchant() {
      const created = await anonymous.sandbox.createMerchant({ body: { name: 'fidelity' } });
      const client = createClient({ baseUrl: url, publicApiKey: created.public_api_key, privateSecretKey: created.private_secret_key, maxRetries: 0 });
      const accountId = created.account_ids[0];
      if (!accountId) throw new Error('the sandbox created a merchant without an account');
      return { client, accountId, headers: { [PUBLIC_KEY_HEADER]: created.public_api_key, [SECRET_KEY_HEADER]: created.private_secret_key } };
    },
    stop: () => sandbox.stop(),
  };
}
