import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { refuseStaleBuild } from '@switchyard/tooling/built';
import { deployPackage } from '@switchyard/tooling/deploy';
import { removeScratchDirs, scratchDir } from '@switchyard/tooling/scratch';

const require = createRequire(import.meta.url);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = require.resolve('typescript/bin/tsc');

afterAll(removeScratchDirs);

/**
 * Each child (the deploy, tsc, the bin) is bounded on its own: a hang detector, not a speed goal. A
 * machine 5-20 times slower than usual, busy with every package's tests, needs minutes.
 */
const CHILD_TIMEOUT_MS = 600_000;

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: CHILD_TIMEOUT_MS, env: { ...process.env, SANDBOX_LOG_LEVEL: 'silent' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * The package as a consumer installs it: `pnpm deploy --prod` copies what `files` publishes (the
 * build's dist/ among it) and installs the production dependencies only (no devDependencies).
 * `pnpm test` builds the package before its tests (turbo.json); run alone, this refuses a dist/
 * older than the sources rather than judge a stale build (it sees the package's own sources only:
 * after a change to the contract, build with the command it names).
 */
async function installedPackage(): Promise<string> {
  refuseStaleBuild(packageDir, 'dist/index.d.ts', 'npx -y pnpm@10 --filter @switchyard/sandbox-server... build');
  return deployPackage('@switchyard/sandbox-server', join(scratchDir('sandbox-package-'), 'sandbox-server'));
}

const CONSUMER = `import { createHttpServer, createSandbox, loadConfig, MemoryStore, type Sandbox } from '@switchyard/sandbox-server';

const config = loadConfig([], {});
if ('help' in config) throw new Error(config.help);
const sandbox: Sandbox = await createSandbox({ ...config, port: 0, logLevel: 'silent' }, { store: new MemoryStore() });
const url: string = await sandbox.start();
createHttpServer(sandbox.app).close();
await sandbox.stop();
export { url };
`;

// A hang detector too, above one child's bound so that a hung child is reported as such: the first
// test runs three children one after another (the deploy, tsc, the bin).
describe('the published package', { timeout: 900_000 }, () => {
  it('type-checks in a strict consumer that installs nothing but the package (skipLibCheck off), and its bin runs', async () => {
    const pkg = await installedPackage();
    const consumer = scratchDir('sandbox-consumer-');
    mkdirSync(join(consumer, 'node_modules', '@switchyard'), { recursive: true });
    symlinkSync(pkg, join(consumer, 'node_modules', '@switchyard', 'sandbox-server'), 'dir');
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', types: [] },
        files: ['index.ts'],
      }),
    );
    writeFileSync(join(consumer, 'index.ts'), CONSUMER);
    const check = await run(process.execPath, [tsc, '-p', consumer], consumer);
    expect(check.stdout).toBe('');
    expect(check.code).toBe(0);

    const help = await run(process.execPath, [join(pkg, 'bin', 'switchyard-sandbox.js'), '-h'], pkg);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('-h, --help');
  });

  it('has a bin that says what to do when dist/ was not built', async () => {
    const dir = scratchDir('sandbox-bin-');
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(packageDir, 'bin', 'switchyard-sandbox.js'), join(dir, 'bin', 'switchyard-sandbox.js'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const result = await run(process.execPath, [join(dir, 'bin', 'switchyard-sandbox.js')], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^switchyard-sandbox: .*dist\/bundle\/main\.js is missing\. Hint: build the sandbox first/);
  });
});
