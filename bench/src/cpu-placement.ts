import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Keeps the load generator off the servers' CPU. On a small machine autocannon otherwise takes
 * whichever core the server under test needs, and the scheduler decides every figure. With
 * Linux's `taskset` and at least two CPUs, this process (the load generator, and the in-process
 * benchmarks) is confined to CPU 0; the servers it spawns are not pinned, so a server's main
 * thread has the other CPUs and V8's collector threads can run beside it. Pinning the servers
 * to one CPU as well was tried: their collector threads then preempt the main thread, and a
 * fixed-rate p99 grew from about 10 ms to 30–120 ms. Every server gets the same placement,
 * so the ratios stay side by side; the report says which placement ran.
 */
export interface CpuPlacement {
  description: string;
  /** Lets this process run on every CPU again (for benchmarks that are not load generation). */
  release(): void;
  /** The command line that starts a server on every CPU (a child inherits this process's pinning). */
  serverCommand(command: string, args: string[]): [string, string[]];
}

/** No placement: servers start as given and nothing is pinned. */
export const asIs = (description: string): CpuPlacement => ({ description, release: () => undefined, serverCommand: (command, args) => [command, args] });

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
  return {
    description: `load generator pinned to CPU 0; servers free on all ${count} CPUs; client overhead unpinned`,
    release: () => execFileSync('taskset', ['-a', '-cp', all, String(process.pid)], { stdio: 'ignore' }),
    serverCommand: (command, args) => ['taskset', ['-c', all, command, ...args]],
  };
}
