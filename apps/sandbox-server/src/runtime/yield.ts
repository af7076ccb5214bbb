import { setImmediate } from 'node:timers/promises';

/**
 * Lets every callback that is waiting run (other requests, health checks, signals) before the
 * caller goes on: long work in batches calls it between batches, so it never holds the event loop.
 */
export function yieldToEventLoop(): Promise<void> {
  return setImmediate();
}
