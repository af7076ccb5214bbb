#!/usr/bin/env node
import { DEMO_MERCHANT } from './app/sandbox.js';
import { ConfigError, loadConfig } from './config.js';
import { createSandbox } from './sandbox.js';
import { PostgresStore } from './store/postgres.js';

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'migrate') {
    const config = loadConfig(rest, process.env);
    if ('help' in config) return void process.stdout.write(config.help);
    if (!config.databaseUrl) throw new ConfigError('migrate needs --database-url or DATABASE_URL');
    const store = await PostgresStore.connect({ connectionString: config.databaseUrl, schema: config.databaseSchema });
    await store.close();
    process.stdout.write('migrations applied\n');
    return;
  }
  const config = loadConfig(process.argv.slice(2), process.env);
  if ('help' in config) {
    process.stdout.write(config.help);
    return;
  }
  const sandbox = await createSandbox(config);
  const url = await sandbox.start();
  process.stdout.write(
    [
      '',
      `Switchyard sandbox listening on ${url}`,
      '',
      'Demo merchant (docs/sandbox.md):',
      `  public-api-key:     ${DEMO_MERCHANT.public_api_key}`,
      `  private-secret-key: ${DEMO_MERCHANT.private_secret_key}`,
      `  account_id:         ${DEMO_MERCHANT.account_ids[0]}`,
      '',
      `Try: curl -s ${url}/sandbox/clock -H 'public-api-key: ${DEMO_MERCHANT.public_api_key}' -H 'private-secret-key: ${DEMO_MERCHANT.private_secret_key}'`,
      '',
    ].join('\n'),
  );
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    sandbox.logger.info({ signal }, 'shutting down');
    // stop() ends a clock advance between batches and cuts requests still open after 5 s; should
    // anything hold it longer, the process goes anyway: a signal is always honoured.
    setTimeout(() => {
      sandbox.logger.error({ signal }, 'shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000).unref();
    sandbox.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        sandbox.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : (error as Error).stack ?? String(error)}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
