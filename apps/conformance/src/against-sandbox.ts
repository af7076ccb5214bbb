/**
 * `pnpm conformance`: starts a fresh sandbox on a free port (memory store) and runs the suite
 * against it. Any CLI option may follow, e.g. `pnpm conformance --reporter junit --output out.xml`.
 */
import { createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';
import { main } from './cli.js';

const sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'silent' });
const url = await sandbox.start();
process.stdout.write(`sandbox started on ${url}\n`);
let code = 2;
try {
  code = await main([...process.argv.slice(2), '--base-url', url]);
} finally {
  await sandbox.stop();
}
process.exit(code);
