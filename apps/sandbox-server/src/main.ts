#!/usr/bin/env node
import { DEMO_MERCHANT } from './app/sandbox.js';
import { ConfigError, loadConfig, type SandboxConfig } from './config.js';
import { describeStore } from './database-url.js';
import { INSPECTOR_PATH } from './http/pages/inspector/page.js';
import { OPENAPI_PATH } from './http/pages/service-index.js';
import { connectPostgres, createSandbox } from './sandbox.js';
import { databaseError, listenError, oneLine } from './startup-errors.js';

/** Runs `step`, rethrowing what it throws in the words of `explain`. */
async function explained<T>(step: () => Promise<T>, explain: (error: unknown) => unknown): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw explain(error);
  }
}

/** Storage errors are only the database's when there is a database. */
const storeErrors = (config: SandboxConfig) => (error: unknown) => (config.databaseUrl === undefined ? error : databaseError(error, config.databaseUrl));

async function migrate(argv: string[]): Promise<void> {
  const config = loadConfig(argv, process.env);
  if ('help' in config) return void process.stdout.write(config.help);
  const databaseUrl = config.databaseUrl;
  if (!databaseUrl) throw new ConfigError('migrate needs a database', 'pass --database-url postgres://… or set DATABASE_URL');
  const store = await explained(() => connectPostgres({ connectionString: databaseUrl, schema: config.databaseSchema, poolSize: config.databasePoolSize, secretKeyPepper: config.secretKeyPepper }), storeErrors(config));
  await store.close();
  const where = describeStore(databaseUrl, config.databaseSchema);
  const applied = store.migrationsApplied;
  process.stdout.write(applied.length === 0 ? `schema already up to date, nothing to apply (${where})\n` : `applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')} (${where})\n`);
}

async function serve(argv: string[]): Promise<void> {
  const config = loadConfig(argv, process.env);
  if ('help' in config) {
    process.stdout.write(config.help);
    return;
  }
  const sandbox = await explained(() => createSandbox(config), storeErrors(config));
  const url = await explained(
    () => sandbox.start(),
    (error) => listenError(error, config.host, config.port),
  ).catch(async (error: unknown) => {
    // The store is open: close it, and report why the start failed rather than anything closing says.
    await sandbox.stop().catch(() => undefined);
    throw error;
  });
  // Before the banner: a supervisor that reads it may signal at once, and a signal that arrives
  // before a listener exists kills the process with the default action instead of stopping it.
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
  process.stdout.write(
    [
      '',
      `Switchyard sandbox listening on ${url}`,
      `Store: ${describeStore(config.databaseUrl, config.databaseSchema)}`,
      `Index: ${url}/ (OpenAPI document: ${url}${OPENAPI_PATH})`,
      `Inspector: ${url}${INSPECTOR_PATH} (sign in with a merchant's keys)`,
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
}

const [command, ...rest] = process.argv.slice(2);
(command === 'migrate' ? migrate(rest) : serve(process.argv.slice(2))).catch((error: unknown) => {
  const explainedError = oneLine(error);
  process.stderr.write(`${explainedError?.line ?? (error as Error).stack ?? String(error)}\n`);
  process.exit(explainedError?.exitCode ?? 1);
});
