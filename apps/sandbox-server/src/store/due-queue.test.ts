import { describe, expect, it } from 'vitest';
import { DueQueue } from './due-queue.js';

/** A small deterministic generator, so a failure replays. */
function numbers(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

interface Due {
  id: string;
  at: number;
  place: number;
}

describe('the due queue', () => {
  it('lists the live entries due by a time, earliest first and equal times by place, through changes, moves and rebuilds', () => {
    const random = numbers(7);
    // Each record's entry number, as the memory tables keep it (renumbered by rebuilds), and what it was queued with.
    const entries = new Map<string, number>();
    const live = new Map<string, Due>();
    let rebuilds = 0;
    const queue = new DueQueue(
      (id, entry) => entries.get(id) === entry,
      (id, entry) => {
        if (entry === 0) rebuilds += 1;
        entries.set(id, entry);
      },
    );
    let place = 0;
    for (let step = 0; step < 3000; step += 1) {
      const id = `r${Math.floor(random() * 400)}`;
      const held = live.get(id);
      if (held && random() < 0.4) {
        live.delete(id);
        entries.delete(id);
        queue.dropped();
      } else {
        // Few distinct times, so equal times are common and their places decide.
        const due = { id, at: Math.floor(random() * 20), place: held?.place ?? (place += 1) };
        live.set(id, due);
        entries.set(id, queue.push(id, due.at, due.place));
        if (held) queue.dropped();
      }
      if (step % 211 === 0) {
        // An insertion order's rebuild: every place renumbered, their order kept.
        const byPlace = [...live.values()].sort((a, b) => a.place - b.place);
        byPlace.forEach((due, k) => {
          due.place = k;
          queue.moved(entries.get(due.id) as number, k);
        });
        queue.reordered();
        place = byPlace.length;
      }
      if (step % 97 === 0) {
        const until = Math.floor(random() * 20);
        const limit = 1 + Math.floor(random() * 30);
        const expected = [...live.values()]
          .filter((e) => e.at <= until)
          .sort((a, b) => a.at - b.at || a.place - b.place)
          .slice(0, limit);
        const seen: Due[] = [];
        queue.earliest(until, (entry) => {
          seen.push({ id: queue.idOf(entry), at: queue.atOf(entry), place: queue.placeOf(entry) });
          return seen.length < limit;
        });
        expect(seen).toEqual(expected);
      }
    }
    expect(rebuilds).toBeGreaterThan(0);
    // Stale entries were dropped along the way: the queue holds at most about twice the live ones.
    expect(queue.held).toBeLessThanOrEqual(2 * live.size + 17);
  });

  it('takes entries again after a rebuild left it empty', () => {
    const entries = new Map<string, number>();
    const queue = new DueQueue(
      (id, entry) => entries.get(id) === entry,
      (id, entry) => entries.set(id, entry),
    );
    for (let i = 0; i < 100; i += 1) entries.set(`e${i}`, queue.push(`e${i}`, i, i));
    for (let i = 0; i < 100; i += 1) {
      entries.delete(`e${i}`);
      queue.dropped();
    }
    expect(queue.held).toBe(0);
    for (let i = 0; i < 70; i += 1) entries.set(`f${i}`, queue.push(`f${i}`, 70 - i, i));
    const seen: string[] = [];
    queue.earliest(Number.MAX_SAFE_INTEGER, (entry) => seen.push(queue.idOf(entry)) < 3);
    expect(seen).toEqual(['f69', 'f68', 'f67']);
  });

  it('keeps times past 2^31 and before 1970 exactly', () => {
    const entries = new Map<string, number>();
    const queue = new DueQueue(
      (id, entry) => entries.get(id) === entry,
      (id, entry) => entries.set(id, entry),
    );
    const times = [Date.UTC(2026, 10, 29, 12, 0, 0, 1), -86_400_000, 2 ** 31 + 1, 0];
    times.forEach((at, k) => entries.set(`t${k}`, queue.push(`t${k}`, at, k)));
    const seen: number[] = [];
    queue.earliest(Number.MAX_SAFE_INTEGER, (entry) => seen.push(queue.atOf(entry)) > 0);
    expect(seen).toEqual([...times].sort((a, b) => a - b));
  });

  it('reads about as many entries as it lists, however many are queued', () => {
    const entries = new Map<string, number>();
    let reads = 0;
    const queue = new DueQueue(
      (id, entry) => {
        reads += 1;
        return entries.get(id) === entry;
      },
      (id, entry) => entries.set(id, entry),
    );
    for (let i = 0; i < 100_000; i += 1) entries.set(`e${i}`, queue.push(`e${i}`, i, i));
    const seen: string[] = [];
    queue.earliest(Number.MAX_SAFE_INTEGER, (entry) => seen.push(queue.idOf(entry)) < 10);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `e${i}`));
    expect(reads).toBe(10);
  });
});
