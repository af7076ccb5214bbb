/**
 * The sandbox on its memory store, alone in its process, answering "measure" on its IPC channel
 * with its memory after full collections (run with --expose-gc), and with how many times the
 * sandbox has handed memory back once requests stopped (its log line, counted here). The
 * clients that fill it run in another process, so nothing of theirs is counted.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !process.send) throw new Error('run with --expose-gc and an IPC channel');

const RELEASED = 'memory handed back once requests stopped';
let releases = 0;
let lastPauseMs = 0;
const counting = new Writable({
  write(chunk: Buffer, _encoding, done) {
    const line = String(chunk);
    if (line.includes(RELEASED)) {
      releases += 1;
      lastPauseMs = (JSON.parse(line) as { pauseMs: number }).pauseMs;
    }
    done();
  },
});
const sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'info' }, { logger: pino({ level: 'info' }, counting) });
const url = await sandbox.start();
process.on('message', (message) => {
  if (message !== 'measure') return;
  gc();
  gc();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.send?.({ rss, heap: heapUsed, heapTotal, external, arrayBuffers, releases, lastPauseMs });
});
process.on('SIGTERM', () => void sandbox.stop().then(() => process.exit(0)));
process.stdout.write(`listening on ${url}\n`);
