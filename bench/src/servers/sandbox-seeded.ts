/**
 * The sandbox as shipped (memory store, info-level logs), its demo merchant first filled with
 * `--payments` payments and `--customers` customers through the store's API (seed.ts); prints its
 * URL once seeded. With an IPC channel and --expose-gc it also answers "measure" with its memory
 * after full collections, like sandbox-probe.ts.
 */
import { parseArgs } from 'node:util';
import { createSandbox, DEMO_MERCHANT, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';
import { seed } from '../seed.js';

const { values } = parseArgs({ options: { payments: { type: 'string' }, customers: { type: 'string' }, 'log-level': { type: 'string' } } });
const config = loadConfig([], {}) as SandboxConfig;
const sandbox = await createSandbox({ ...config, port: 0, logLevel: values['log-level'] ?? config.logLevel });
const url = await sandbox.start();
const merchant = await sandbox.store.findMerchantByPublicKey(DEMO_MERCHANT.public_api_key);
if (!merchant) throw new Error('no demo merchant');
await seed(sandbox, url, merchant.id, merchant.account_ids, { payments: Number(values.payments ?? 0), customers: Number(values.customers ?? 0) });
const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (message) => {
  if (message !== 'measure' || !gc) return;
  gc();
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  process.send?.({ rss, heap: heapUsed });
});
process.on('SIGTERM', () => void sandbox.stop().then(() => process.exit(0)));
process.stdout.write(`listening on ${url}\n`);
