import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { collector } from '../test-support/gc.js';
import { Deadline } from './deadline.js';


describe('Deadline', () => {
  it('ends a POST to a receiver that never answers on time while garbage collections run (the time-out is never collected)', async () => {
    const gc = collector();
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const stopping = new AbortController();
    const collecting = setInterval(gc, 10);
    const started = performance.now();
    try {
      const deadline = new Deadline(300, stopping.signal);
      const error = await fetch(url, { method: 'POST', body: '{}', signal: deadline.signal }).then(
        () => undefined,
        (err: unknown) => err as Error,
      );
      deadline.clear();
      expect(error?.name).toBe('TimeoutError');
      expect(deadline.timedOut).toBe(true);
      // A hang detector, not a speed measure: with the time-out collected, the POST is held for minutes.
      expect(performance.now() - started).toBeLessThan(30_000);
    } finally {
      clearInterval(collecting);
      server.closeAllConnections();
      server.close();
    }
  });

  it('aborts with the reason of the signal it follows, and is not a time-out then', () => {
    const stopping = new AbortController();
    const deadline = new Deadline(60_000, stopping.signal);
    stopping.abort(new Error('stopping'));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as Error).message).toBe('stopping');
    expect(deadline.timedOut).toBe(false);
    deadline.clear();
  });

  it('is aborted from the start when the signal it follows already is', () => {
    const deadline = new Deadline(60_000, AbortSignal.abort(new Error('gone')));
    expect(deadline.signal.aborted).toBe(true);
    deadline.clear();
  });
});
