/**
 * The sandbox on its memory store, alone in its process, answering "measure" on its IPC channel
 * with its memory after full collections (run with --expose-gc), and with how many times the
 * sandbox has handed memory back once requests stopped, and the last one's pause. The
 * clients that fill it run in another process, so nothing of theirs is counted.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';

const exposed = (globalThis as { gc?: (options?: { type: 'major'; execution: 'sync' }) => void }).gc;
if (!exposed || !process.send) throw new Error('run with --expose-gc and an IPC channel');
/**
 * A full collection: V8 11 (Node 20) runs one for `gc()` and none for an options object, V8 12
 * and later the other way round (docs/benchmarks.md, "Memory handed back once requests stop").
 * Not the last-resort flavour, which would hand back what the sandbox's own release is measured on.
 */
const gc = Number(process.versions.v8.split('.')[0]) >= 12 ? () => exposed({ type: 'major', execution: 'sync' }) : () => exposed();

let releases = 0;
let lastPauseMs = 0;
// Logged at info level, as a user sees it, into a sink: the logging's cost is the sandbox's own.
const sink = new Writable({ decodeStrings: false, write: (_line: string, _encoding, done) => done() });
const sandbox = await createSandbox(
  { ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'info' },
  {
    logger: pino({ level: 'info' }, sink),
    memoryRelease: {
      onRelease: (release) => {
        releases += 1;
        lastPauseMs = release.pauseMs;
      },
    },
  },
);
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
