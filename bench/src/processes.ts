import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export interface Spawned {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the URL answering `readyPath` with 200. */
  startupMs: number;
  stop(): Promise<void>;
}

async function waitReady(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready in time`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Runs a command that prints its URL, and measures spawn → ready. */
export async function spawnServer(command: string, args: string[], urlPattern: RegExp, readyPath: string, timeoutMs = 30_000): Promise<Spawned> {
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      const m = urlPattern.exec(output);
      if (m?.[1]) resolve(m[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}) before listening:\n${output}`)));
    setTimeout(() => reject(new Error(`${command} did not print its URL in time:\n${output}`)), timeoutMs);
  });
  await waitReady(`${url}${readyPath}`, Date.now() + timeoutMs);
  const startupMs = performance.now() - started;
  return {
    url,
    child,
    startupMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The built sandbox CLI of this workspace. */
export function sandboxEntry(): string {
  return join(dirname(require.resolve('@switchyard/sandbox-server/package.json')), 'dist', 'main.js');
}

export function startSandboxProcess(): Promise<Spawned> {
  return spawnServer(process.execPath, [sandboxEntry(), '--port', '0', '--log-level', 'silent'], /listening on (http:\/\/\S+)/, '/ready');
}
