import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Where the servers under test and the load generator run. On a small machine a server and
 * autocannon otherwise fight for the same cores, and the scheduler decides every figure. With
 * Linux's `taskset` and at least two CPUs, each server runs alone on the last CPU and this
 * process (the load generator, and the in-process benchmarks) on the others. Every server gets
 * the same placement, so the ratios stay side by side; the report says which placement ran.
 */
export interface CpuPlacement {
  /** Prefixes a server's command so that it runs on the server CPU. */
  wrap(command: string, args: string[]): [string, string[]];
  description: string;
}

const unpinned: CpuPlacement = {
  wrap: (command, args) => [command, args],
  description: 'servers and load generator share every CPU',
};

function tasksetWorks(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function placeCpus(): CpuPlacement {
  const count = availableParallelism();
  if (process.platform !== 'linux' || count < 2 || process.env.BENCH_NO_PIN === '1' || !tasksetWorks()) return unpinned;
  const serverCpu = String(count - 1);
  const loadCpus = count === 2 ? '0' : `0-${count - 2}`;
  // -a: every thread of this process (libuv's pool and V8's helpers included).
  execFileSync('taskset', ['-a', '-cp', loadCpus, String(process.pid)], { stdio: 'ignore' });
  return {
    wrap: (command, args) => ['taskset', ['-c', serverCpu, command, ...args]],
    description: `each server alone on CPU ${serverCpu}; load generator on CPU ${loadCpus}`,
  };
}
