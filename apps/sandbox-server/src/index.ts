export { createSandbox, type Sandbox, type SandboxOverrides, type MemoryReleaseOverrides } from './sandbox.js';
export type { MemoryRelease } from './runtime/memory-release.js';
export { createHttpServer } from './http/server/http-server.js';
export { loadConfig, DEFAULT_PORT, DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts, type SandboxConfig } from './config.js';
export { DEMO_MERCHANT } from './app/sandbox.js';
export { MemoryStore } from './store/memory.js';
export type { Store, Tx, MerchantRecord, RecordKind } from './store/types.js';
export { TEST_CARDS } from './domain/cards.js';
export { PostgresStore } from './store/postgres.js';
