import { describe, expect, it } from 'vitest';
import { FairSlots } from './fair-slots.js';

/** A callback that runs until `release()`; `started` says whether it got a place yet. */
function held() {
  let release: () => void = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  const job = { started: false, release, run: () => ((job.started = true), done) };
  return job;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairSlots', () => {
  it('gives one key no more than its own cap, so another key starts at once while it waits', async () => {
    const slots = new FairSlots(8, 2);
    const greedy = Array.from({ length: 10 }, held);
    const runs = greedy.map((job) => slots.run('greedy', job.run));
    const other = held();
    const otherRun = slots.run('other', other.run);
    await settle();
    expect(greedy.filter((j) => j.started)).toHaveLength(2);
    expect(other.started).toBe(true);
    expect(slots.inUse()).toBe(3);
    other.release();
    for (const job of greedy) job.release();
    await Promise.all([...runs, otherRun]);
    expect(greedy.every((j) => j.started)).toBe(true);
    expect(slots.inUse()).toBe(0);
  });

  it('hands freed places to the waiting keys in turn, not to the longest queue', async () => {
    const slots = new FairSlots(1, 1);
    const order: string[] = [];
    const first = held();
    const running = slots.run('a', first.run);
    const queued = [
      ...['a', 'a', 'a'].map((key) => slots.run(key, async () => void order.push(key))),
      slots.run('b', async () => void order.push('b')),
      slots.run('c', async () => void order.push('c')),
    ];
    first.release();
    await Promise.all([running, ...queued]);
    expect(order).toEqual(['a', 'b', 'c', 'a', 'a']);
  });

  it('frees the place of a callback that throws', async () => {
    const slots = new FairSlots(1, 1);
    await expect(slots.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(slots.run('a', async () => 'next')).resolves.toBe('next');
    expect(slots.inUse('a')).toBe(0);
  });
});
