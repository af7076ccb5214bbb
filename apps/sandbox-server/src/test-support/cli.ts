import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

/** The CLI bundled once for the test run (cli-bundle-setup.ts), as the package's `bin` runs it. */
export const CLI_BUNDLE = inject('cliBundle');
/** What the repository's `sandbox` script runs: the bundle of the sources, then the CLI in the same process. */
export const START_SCRIPT = fileURLToPath(new URL('../../../../tooling/config/sandbox.mjs', import.meta.url));

/** The `switchyard-sandbox` CLI in a process of its own, as an operator runs it (by default the bundle of its sources, as its `bin` runs). */
export function startCli(args: string[], env: Record<string, string> = {}, command: string[] = [CLI_BUNDLE]) {
  const child = spawn(process.execPath, [...command, ...args], { env: { ...process.env, SANDBOX_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (err += String(d)));
  // 'close', not 'exit': by then stdout and stderr are read to their end, so `output()` is whole.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', () => reject(new Error(`exited before listening: ${err}`)));
  });
  // A CLI that is expected to fail never listens; the rejection is only an error for tests that await the URL.
  url.catch(() => undefined);
  /** Ends the process unless it has ended already, and waits for it: for `finally`, so a failed assertion never leaves one behind. */
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return { child, url, exited, stop, output: () => out, errors: () => err };
}
