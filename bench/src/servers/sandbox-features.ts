/**
 * The sandbox on its memory store with some of its per-request features turned off, for
 * feature-costs.ts: `--log-level warn` drops the request log line, `--journal-size 0` the request
 * journal, `--compaction off` the compression of stored records. Without flags it is the sandbox
 * as shipped.
 */
import { parseArgs } from 'node:util';
import { createSandbox, loadConfig, MemoryStore, type SandboxConfig } from '@switchyard/sandbox-server';

const { values } = parseArgs({ options: { 'log-level': { type: 'string' }, 'journal-size': { type: 'string' }, compaction: { type: 'string' } } });
const config = loadConfig([], {}) as SandboxConfig;
const compaction = values.compaction === 'off' ? 'off' : undefined;
const sandbox = await createSandbox(
  { ...config, port: 0, logLevel: values['log-level'] ?? config.logLevel, journalSize: values['journal-size'] === undefined ? config.journalSize : Number(values['journal-size']) },
  compaction ? { store: new MemoryStore({ compaction }) } : {},
);
const url = await sandbox.start();
process.on('SIGTERM', () => void sandbox.stop().then(() => process.exit(0)));
process.stdout.write(`listening on ${url}\n`);
