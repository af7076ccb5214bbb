import type { AddressInfo } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { seedMerchants } from './app/sandbox.js';
import { ADVANCE_DELIVERY_PATIENCE_MS, ClockAdvancer } from './app/clock-advance.js';
import { purgeEveryMerchant } from './app/retention.js';
import type { SandboxConfig } from './config.js';
import { createApp } from './http/app.js';
import { createHttpServer } from './http/server/http-server.js';
import { RequestJournal } from './http/journal/journal.js';
import { createLogger } from './logger.js';
import { logFormatFor } from './log-format.js';
import { BaseClock, SEEDED_EPOCH_MS } from './runtime/clock.js';
import { IdFactory } from './runtime/ids.js';
import { IdleMemoryRelease, lastResortCollection, type MemoryRelease } from './runtime/memory-release.js';
import { MemoryStore } from './store/memory.js';
import { MemoryCeiling } from './store/memory-ceiling.js';
import type { PostgresStore } from './store/postgres.js';
import { MerchantQuota } from './app/merchant-quota.js';
import { DestinationGuard } from './webhooks/destinations.js';
import { DispatchRun, WebhookDispatcher } from './webhooks/dispatcher.js';
import type { Store } from './store/types.js';

export interface Sandbox {
  app: Express;
  store: Store;
  logger: Logger;
  dispatcher: WebhookDispatcher;
  /** Listens on the configured host and port; resolves with the URL actually bound. */
  start(): Promise<string>;
  /** Stops accepting connections, lets requests in flight finish, closes the store. */
  stop(): Promise<void>;
}

export interface SandboxOverrides {
  store?: Store;
  logger?: Logger;
  /** How the memory a burst of requests grew is handed back once requests stop (docs/sandbox.md, "A store of a million records"). */
  memoryRelease?: MemoryReleaseOverrides;
}

/** What an embedder may change of the release of memory once requests stop; the defaults suit a shared sandbox. */
export interface MemoryReleaseOverrides {
  /** Quiet time, without a request and with none in flight, before memory is handed back: whole milliseconds from 1 to 2,147,483,647 (a timer's range); 10 s by default. */
  idleMs?: number;
  /** Resident growth since the last release below which none runs; 32 MB by default, 0 releases after every quiet time. */
  minGrowthBytes?: number;
  /** Called after each release, beside its log line: what it freed and how long it stopped the process. An error it throws is logged, never thrown. */
  onRelease?: (release: MemoryRelease) => void;
}

/**
 * The PostgreSQL store's module, loaded only when a sandbox has a database: it brings the `pg`
 * driver, which the memory store (the default, and every first start) never needs, and whose
 * loading was a tenth of the time from spawn to ready.
 */
const postgresModule = () => import('./store/postgres.js');

/** What the store is, for the index page and the health answer; another store's module is only loaded to tell a PostgreSQL store from a custom one. */
async function storeKind(store: Store): Promise<'memory' | 'postgresql' | 'custom'> {
  if (store instanceof MemoryStore) return 'memory';
  const { PostgresStore: Postgres } = await postgresModule();
  return store instanceof Postgres ? 'postgresql' : 'custom';
}

/** Opens a PostgreSQL store, loading its module first (`postgresModule`); `migrate` opens one the same way. */
export const connectPostgres = async (options: Parameters<typeof PostgresStore.connect>[0]) => (await postgresModule()).PostgresStore.connect(options);

/**
 * Quiet time after which the memory a burst of requests grew is handed back (IdleMemoryRelease):
 * V8's own memory reducer waits 8 s after its last collection before it looks.
 */
const RELEASE_AFTER_IDLE_MS = 10_000;
/** Less growth than this since the last release is not worth stopping the process for. */
const RELEASE_MIN_GROWTH_BYTES = 32 * 1024 ** 2;
/** The longest delay Node's timers take; a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A full collection of a larger heap would stop the process for about a second or more. */
const RELEASE_MAX_HEAP_BYTES = 1024 ** 3;

/** Builds a sandbox from its configuration: store, clock, ids, merchants and the HTTP app. */
export async function createSandbox(config: SandboxConfig, overrides: SandboxOverrides = {}): Promise<Sandbox> {
  const releaseOverrides = overrides.memoryRelease ?? {};
  const idleMs = releaseOverrides.idleMs ?? RELEASE_AFTER_IDLE_MS;
  // A timer past its range fires after 1 ms, so a larger quiet time would release after every request.
  if (!Number.isInteger(idleMs) || idleMs < 1 || idleMs > MAX_TIMER_MS) throw new RangeError(`memoryRelease.idleMs must be whole milliseconds from 1 to ${MAX_TIMER_MS}, got ${idleMs}`);
  const logger = overrides.logger ?? createLogger(config.logLevel, undefined, logFormatFor(config.logFormat, process.stdout.isTTY));
  const secretKeyPepper = config.secretKeyPepper;
  const collect = lastResortCollection();
  const store =
    overrides.store ??
    (config.databaseUrl ? await connectPostgres({ connectionString: config.databaseUrl, schema: config.databaseSchema, poolSize: config.databasePoolSize, secretKeyPepper }) : new MemoryStore({ secretKeyPepper, ceiling: new MemoryCeiling({ limitBytes: config.memoryLimitBytes, reclaim: collect }) }));
  const clock = new BaseClock(config.seed === undefined ? undefined : SEEDED_EPOCH_MS);
  const ids = new IdFactory(config.seed);
  await seedMerchants(store, clock, ids, config.merchantsFile);
  let baseUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
  const deps = {
    store,
    clock,
    ids,
    baseUrl: () => baseUrl,
    maxProviderLatencyMs: config.maxProviderLatencyMs,
    limits: config.limits,
    merchantQuota: new MerchantQuota(config.limits),
  };
  let listeningPort: number | undefined;
  const destinations = new DestinationGuard(config.webhookDestinations, () => {
    if (listeningPort === undefined) return undefined;
    const publicUrl = new URL(baseUrl);
    return { port: listeningPort, publicHost: publicUrl.hostname.replace(/^\[|\]$/g, ''), publicPort: Number(publicUrl.port || (publicUrl.protocol === 'https:' ? 443 : 80)) };
  });
  const dispatcher = new WebhookDispatcher(store, clock, logger, { timeoutMs: config.webhookTimeoutMs, timeScale: config.webhookTimeScale, sweepMs: 200, destinations });
  // Aborted first thing on stop: a clock advance in progress ends between two of its batches.
  const shutdown = new AbortController();
  const clockAdvancer = new ClockAdvancer((signal) => {
    const run = new DispatchRun(signal, ADVANCE_DELIVERY_PATIENCE_MS);
    return (merchantId) => dispatcher.runDueWhilePrompt(merchantId, run);
  }, shutdown.signal);
  const journal = new RequestJournal(config.journalSize);
  const app = createApp({ ...deps, dispatcher, clockAdvancer, journal, logger, responseValidation: config.responseValidation, bodyLimit: config.bodyLimit, storeKind: await storeKind(store) });
  let server: Server | undefined;
  // Storage stays bounded on a sandbox that runs for weeks without anyone advancing its clocks.
  const retention = setInterval(() => {
    purgeEveryMerchant(store, clock).catch((err: unknown) => logger.error({ err }, 'retention sweep failed'));
  }, 10 * 60_000);
  retention.unref();
  const mb = (bytes: number) => Math.round(bytes / 1024 ** 2);
  const release =
    collect &&
    new IdleMemoryRelease({
      idleMs,
      minGrowthBytes: releaseOverrides.minGrowthBytes ?? RELEASE_MIN_GROWTH_BYTES,
      collect,
      maxHeapBytes: RELEASE_MAX_HEAP_BYTES,
      busy: () => store instanceof MemoryStore && store.compactionQueued > 0,
      recheckMs: 1000,
      readResident: () => process.memoryUsage.rss(),
      readHeapUsed: () => process.memoryUsage().heapUsed,
      onRelease: (r) => {
        logger.info({ heapUsedMb: mb(r.heapUsedBytes), residentBeforeMb: mb(r.residentBeforeBytes), residentAfterMb: mb(r.residentAfterBytes), pauseMs: Math.round(r.pauseMs) }, 'memory handed back once requests stopped');
        try {
          releaseOverrides.onRelease?.(r);
        } catch (err) {
          logger.error({ err }, 'the onRelease callback given to createSandbox failed');
        }
      },
    });

  return {
    app,
    store,
    logger,
    dispatcher,
    start: () =>
      new Promise((resolve, reject) => {
        const listening = createHttpServer(app, config.httpTimeouts, config.outputLimits);
        listening.once('error', reject);
        listening.once('listening', () => {
          server = listening;
          if (release)
            listening.on('request', (_req, res: ServerResponse) => {
              release.requestStarted();
              res.once('close', () => release.requestEnded());
            });
          dispatcher.start();
          const { port } = listening.address() as AddressInfo;
          listeningPort = port;
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          baseUrl = config.publicUrl ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
          resolve(baseUrl);
        });
        listening.listen(config.port, config.host);
      }),
    stop: async () => {
      shutdown.abort();
      clearInterval(retention);
      release?.stop();
      await dispatcher.stop();
      if (server) {
        const closing = new Promise<void>((resolve) => server?.close(() => resolve()));
        server.closeIdleConnections();
        // Requests in flight get a few seconds to finish; then the remaining connections are cut.
        const cut = setTimeout(() => server?.closeAllConnections(), 5000);
        cut.unref();
        await closing;
        clearTimeout(cut);
      }
      await store.close();
      // Written out before stop() returns: the caller's process.exit cannot wait for a write in flight.
      await new Promise<void>((resolve) => logger.flush(() => resolve()));
    },
  };
}
