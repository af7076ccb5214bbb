import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { sandboxNodeFlags } from '@switchyard/tooling/node-flags';
import { asIs, type CpuPlacement } from './cpu-placement.js';

const require = createRequire(import.meta.url);

let placement: CpuPlacement = asIs('not placed');
/** Servers spawned from now on start as `p` says. */
export function useCpuPlacement(p: CpuPlacement): void {
  placement = p;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

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

/** Runs a command that prints its URL, and measures spawn → ready (`readyPath` answering 200, or the URL printed when null). */
export async function spawnServer(command: string, args: string[], urlPattern: RegExp, readyPath: string | null, timeoutMs = 60_000, ipc = false): Promise<Spawned> {
  const started = performance.now();
  const [file, argv] = placement.serverCommand(command, args);
  const child = spawn(file, argv, { stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    let found = false;
    const onData = (chunk: Buffer) => {
      // Keeps draining the pipe after the URL (the server's logs), without keeping them.
      if (found) return;
      output += String(chunk);
      const m = urlPattern.exec(output);
      if (m?.[1]) {
        found = true;
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}) before listening:\n${output}`)));
    setTimeout(() => reject(new Error(`${command} did not print its URL in time:\n${output}`)), timeoutMs);
  });
  if (readyPath !== null) await waitReady(`${url}${readyPath}`, Date.now() + timeoutMs);
  const startupMs = performance.now() - started;
  // After startup, when the threads Node and V8 start with already exist (see cpu-placement.ts).
  if (child.pid !== undefined) placement.placeServerMainThread(child.pid);
  return {
    url,
    child,
    startupMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        // A server that does not stop within 5 s of SIGTERM is killed: the benchmark must end.
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** The sandbox's command as the package ships it: the file its `bin` runs (the build bundles it). */
export function sandboxEntry(): string {
  return join(dirname(require.resolve('@switchyard/sandbox-server/package.json')), 'dist', 'bundle', 'main.js');
}

/**
 * The Node flags the repository starts the sandbox with (the root `sandbox` script): every
 * sandbox-based server of the bench runs with them, so the bench measures what a user runs.
 */
export const SHIPPED_NODE_FLAGS: readonly string[] = sandboxNodeFlags();

/** The sandbox as shipped (info-level logs, drained), on the memory store unless a database is given; another build's CLI, or more Node flags, if given. */
export function startSandboxProcess(extra: string[] = [], entry = sandboxEntry(), nodeFlags: string[] = []): Promise<Spawned> {
  return spawnServer(process.execPath, [...SHIPPED_NODE_FLAGS, ...nodeFlags, entry, '--port', '0', ...extra], /listening on (http:\/\/\S+)/, '/ready');
}

const here = (file: string) => new URL(file, import.meta.url).pathname;

/** Bench servers built on the sandbox's code, which run with its Node flags; the bare baselines keep Node's defaults. */
const SANDBOX_BASED = new Set(['stack-floor', 'sandbox-features', 'sandbox-probe', 'sandbox-seeded']);

/** How a bench server is run beyond its arguments: more Node flags, a start bound, an IPC channel. */
interface BenchServerOptions {
  nodeFlags?: string[];
  timeoutMs?: number;
  ipc?: boolean;
}

/** One of the servers in `servers/`, run by tsx with `args`; ready once `/ready` answers (bare node:http answers every path alike, so `/`). */
export function startBenchServer(file: string, args: string[] = [], o: BenchServerOptions = {}): Promise<Spawned> {
  const flags = [...(SANDBOX_BASED.has(file) ? SHIPPED_NODE_FLAGS : []), ...(o.nodeFlags ?? [])];
  return spawnServer(process.execPath, [...flags, '--import', 'tsx', here(`./servers/${file}.ts`), ...args], /listening on (http:\/\/\S+)/, file === 'node-http' ? '/' : '/ready', o.timeoutMs, o.ipc);
}

/** The sandbox alone in a process that reports its own memory on request (see servers/sandbox-probe.ts). */
export function startSandboxProbe(): Promise<Spawned> {
  return startBenchServer('sandbox-probe', [], { nodeFlags: ['--expose-gc'], ipc: true });
}

export function startBaseline(kind: 'node-http' | 'express' | 'express-server-classes' | 'stack-floor'): Promise<Spawned> {
  return kind === 'express-server-classes' ? startBenchServer('express', ['server-classes']) : startBenchServer(kind);
}

/**
 * How long Prism may take to start: a hang detector. It loads several hundred modules and the
 * whole document before it listens; on a 2-CPU machine running two test suites beside the bench's
 * smoke test it had not printed its address after 120 s.
 */
const PRISM_START_MS = 600_000;

/** Stoplight Prism 5.14.2 mocking the contract's OpenAPI document (the peer a team would pick). */
export async function startPrismMock(): Promise<Spawned> {
  const port = await freePort();
  const cli = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
  const openapi = join(dirname(require.resolve('@switchyard/contract/package.json')), 'openapi.json');
  return spawnServer(process.execPath, [cli, 'mock', openapi, '--port', String(port), '--host', '127.0.0.1'], /Prism is listening on (http:\/\/\S+)/, null, PRISM_START_MS);
}
