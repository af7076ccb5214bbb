/**
 * The sandbox on its memory store, alone in its process, answering "measure" on its IPC channel
 * with its memory after full collections (run with --expose-gc). The clients that fill it run in
 * another process, so nothing of theirs is counted.
 */
import { createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !process.send) throw new Error('run with --expose-gc and an IPC channel');

const sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'warn' });
const url = await sandbox.start();
process.on('message', (message) => {
  if (message !== 'measure') return;
  gc();
  gc();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.send?.({ rss, heap: heapUsed, heapTotal, external, arrayBuffers });
});
process.on('SIGTERM', () => void sandbox.stop().then(() => process.exit(0)));
process.stdout.write(`listening on ${url}\n`);
