/**
 * Runs `paced` in a process of its own, so that the generator's event loop and heap hold nothing
 * but the requests it sends: the benchmark process around it keeps sessions, other results and
 * the servers' log pipes, and their pauses would otherwise be charged to the server under test.
 * Input (requests prepared in advance) and output travel over the IPC channel.
 */
import { paced, type PacedOptions } from './paced.js';

interface Job extends Omit<PacedOptions, 'next'> {
  /** Sent first at the same rate and not counted: warms this process's JIT and its connections. */
  warmup: { body: string; headers?: Record<string, string> }[];
  requests: { body: string; headers?: Record<string, string> }[];
}

process.once('message', async (job: Job) => {
  const { warmup, requests, ...options } = job;
  if (warmup.length > 0) await paced({ ...options, durationSeconds: warmup.length / options.rate, next: (i) => warmup[i] as { body: string } });
  const result = await paced({ ...options, next: (i) => requests[i] as { body: string } });
  process.send?.(result, () => process.exit(0));
});
