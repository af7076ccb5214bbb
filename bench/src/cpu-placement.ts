import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Keeps the load generator and the server under test off each other's CPU. On a small machine
 * autocannon otherwise takes whichever core the server needs, and the scheduler decides every
 * figure. With Linux's `taskset` and at least two CPUs, this process (the load generator, and
 * the in-process benchmarks) is confined to CPU 0. A server starts on every CPU, so the threads
 * V8 and Node create at startup (the collector's helpers among them) may run anywhere; once it
 * answers, its main thread alone is moved to the other CPUs. Without that last step the kernel
 * keeps waking the main thread on CPU 0, beside the generator that sent it the packet, and the
 * generator's lateness was charged to the server: a fixed-rate p99 of 4–8 ms with the main
 * thread on CPU 1, 6–80 ms without. Pinning a whole server to one CPU was tried too: its
 * collector threads then preempt the main thread, and that p99 grew to 30–120 ms. Every server
 * gets the same placement, so the ratios stay side by side; the report says which placement ran.
 */
export interface CpuPlacement {
  description: string;
  /** Lets this process run on every CPU again (for benchmarks that are not load generation). */
  release(): void;
  /** The command line that starts a server on every CPU (a child inherits this process's pinning). */
  serverCommand(command: string, args: string[]): [string, string[]];
  /** Moves a started server's main thread (only) off the load generator's CPU. */
  placeServerMainThread(pid: number): void;
}

/** No placement: servers start as given and nothing is pinned. */
export const asIs = (description: string): CpuPlacement => ({ description, release: () => undefined, serverCommand: (command, args) => [command, args], placeServerMainThread: () => undefined });

export function placeLoadGenerator(): CpuPlacement {
  const count = availableParallelism();
  if (process.platform !== 'linux' || count < 2 || process.env.BENCH_NO_PIN === '1') return asIs('not pinned (needs Linux, taskset and 2 CPUs; or BENCH_NO_PIN=1)');
  try {
    // -a: every thread of this process (libuv's pool and V8's helpers included).
    execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
  } catch {
    return asIs('not pinned (taskset unavailable)');
  }
  const all = `0-${count - 1}`;
  const servers = count === 2 ? '1' : `1-${count - 1}`;
  return {
    description: `load generator pinned to CPU 0; each server's main thread on CPUs ${servers}, its other threads on all ${count}; client overhead unpinned`,
    release: () => execFileSync('taskset', ['-a', '-cp', all, String(process.pid)], { stdio: 'ignore' }),
    serverCommand: (command, args) => ['taskset', ['-c', all, command, ...args]],
    // Without -a, taskset changes the one thread whose id it is given: the process's main thread.
    placeServerMainThread: (pid) => execFileSync('taskset', ['-cp', servers, String(pid)], { stdio: 'ignore' }),
  };
}
