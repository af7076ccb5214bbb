import { describe, expect, it } from 'vitest';
import { DueQueue, type DueEntry } from './due-queue.js';

/** A small deterministic generator, so a failure replays. */
function numbers(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('the due queue', () => {
  it('lists the live entries due by a time, earliest first and equal times by place, through changes and rebuilds', () => {
    const random = numbers(7);
    const live = new Map<string, DueEntry>();
    const queue = new DueQueue((entry) => live.get(entry.id) === entry);
    let place = 0;
    for (let step = 0; step < 3000; step += 1) {
      const id = `r${Math.floor(random() * 400)}`;
      const held = live.get(id);
      if (held && random() < 0.4) {
        live.delete(id);
        queue.dropped();
      } else {
        // Few distinct times, so equal times are common and their places decide.
        const entry = { id, at: Math.floor(random() * 20), place: held?.place ?? (place += 1) };
        live.set(id, entry);
        queue.push(entry);
        if (held) queue.dropped();
      }
      if (step % 97 === 0) {
        const until = Math.floor(random() * 20);
        const limit = 1 + Math.floor(random() * 30);
        const expected = [...live.values()]
          .filter((e) => e.at <= until)
          .sort((a, b) => a.at - b.at || a.place - b.place)
          .slice(0, limit);
        const seen: DueEntry[] = [];
        queue.earliest(until, (entry) => {
          seen.push(entry);
          return seen.length < limit;
        });
        expect(seen).toEqual(expected);
      }
    }
    // Stale entries were dropped along the way: the heap holds at most about twice the live ones.
    expect(queue.held).toBeLessThanOrEqual(2 * live.size + 17);
  });

  it('reads about as many entries as it lists, however many are queued', () => {
    const live = new Map<string, DueEntry>();
    let reads = 0;
    const queue = new DueQueue((entry) => {
      reads += 1;
      return live.get(entry.id) === entry;
    });
    for (let i = 0; i < 100_000; i += 1) {
      const entry = { id: `e${i}`, at: i, place: i };
      live.set(entry.id, entry);
      queue.push(entry);
    }
    const seen: string[] = [];
    queue.earliest(Number.MAX_SAFE_INTEGER, (entry) => seen.push(entry.id) < 10);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `e${i}`));
    expect(reads).toBe(10);
  });
});
