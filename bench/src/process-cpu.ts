import { existsSync, readFileSync, readdirSync } from 'node:fs';

/** Fields of /proc/<pid>/stat after the command name (state is 0, ppid 1, utime 11, stime 12, cutime 13, cstime 14). */
function statOf(pid: number): number[] {
  try {
    return (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []).map(Number);
  } catch {
    return [];
  }
}

const TICKS_PER_SECOND = 100;

function threadsOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/** Whether this kernel keeps per-thread run times (CONFIG_SCHED_INFO). */
const HAS_SCHEDSTAT = existsSync('/proc/self/schedstat');

/** Nanoseconds a thread has run; 0 for one that exited since it was listed. */
function runNanosecondsOf(pid: number, tid: string): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

/**
 * CPU seconds used so far by one process: the time each of its threads has run, in nanoseconds
 * (/proc/<pid>/task/<tid>/schedstat). A run of a few hundred quick requests uses tens of
 * milliseconds, which the 10 ms ticks of /proc/<pid>/stat would read as anything from none to
 * twice that. Threads that already exited are not counted; the servers measured here keep theirs.
 * Where the kernel keeps no schedstat, the ticks are read instead.
 */
export function cpuSecondsOf(pid: number): number {
  if (HAS_SCHEDSTAT) return threadsOf(pid).reduce((sum, tid) => sum + runNanosecondsOf(pid, tid), 0) / 1e9;
  const f = statOf(pid);
  return ((f[11] ?? 0) + (f[12] ?? 0)) / TICKS_PER_SECOND;
}

const commOf = (pid: number | string): string => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

/**
 * CPU seconds used so far by PostgreSQL on this machine: its live processes, and the backends
 * that already exited (the postmaster's reaped children). Other users of the database count too.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || commOf(entry) !== 'postgres') continue;
    const f = statOf(Number(entry));
    total += (f[11] ?? 0) + (f[12] ?? 0);
    if (commOf(f[1] ?? 0) !== 'postgres') total += (f[13] ?? 0) + (f[14] ?? 0);
  }
  return total / TICKS_PER_SECOND;
}
