/**
 * One record's due work in one lane: when, and its place in its table's insertion order (equal
 * times go in that order, as PostgreSQL's `ORDER BY due_at, seq`). `at` never changes once
 * queued (a record whose due time changes gets a new entry); `place` may be renumbered by the
 * insertion order's rebuild, which keeps every place's order, so the queue's order holds.
 */
export interface DueEntry {
  readonly id: string;
  readonly at: number;
  place: number;
}

const before = (a: DueEntry, b: DueEntry) => a.at < b.at || (a.at === b.at && a.place < b.place);

/**
 * The due entries of one lane of one kind, earliest first: a binary heap. Finding the earliest
 * `limit` reads about `limit` entries whatever the lane holds, where a scan of every entry grew
 * with the stored data (every event and idempotency record has retention work). An entry that
 * is no longer its record's (`isLive`) stays behind until stale entries outnumber live ones; then
 * the heap is rebuilt from the live ones, a cost spread over the changes that made it necessary.
 */
export class DueQueue {
  private heap: DueEntry[] = [];
  private stale = 0;

  constructor(private readonly isLive: (entry: DueEntry) => boolean) {}

  /** Entries held, stale ones included. */
  get held(): number {
    return this.heap.length;
  }

  push(entry: DueEntry): void {
    const heap = this.heap;
    let i = heap.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = heap[parent] as DueEntry;
      if (!before(entry, above)) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = entry;
  }

  /** An entry stopped being its record's (the record left, or its due work changed). */
  dropped(): void {
    this.stale += 1;
    if (this.stale > this.heap.length / 2 + 16) this.rebuild();
  }

  /**
   * Live entries due at or before `untilMs`, earliest first, for as long as `visit` returns true:
   * a best-first walk down the heap, so it reads the entries it visits and their children only.
   */
  earliest(untilMs: number, visit: (entry: DueEntry) => boolean): void {
    const heap = this.heap;
    if (heap.length === 0) return;
    // Heap positions to read next, itself a heap ordered by the entries they hold.
    const frontier: number[] = [0];
    const entryAt = (k: number) => heap[frontier[k] as number] as DueEntry;
    while (frontier.length > 0) {
      const i = frontier[0] as number;
      const entry = heap[i] as DueEntry;
      if (entry.at > untilMs) return;
      // Take the first position off the frontier.
      const last = frontier.pop() as number;
      if (frontier.length > 0) {
        let k = 0;
        frontier[0] = last;
        for (;;) {
          const l = 2 * k + 1;
          if (l >= frontier.length) break;
          const r = l + 1;
          const c = r < frontier.length && before(entryAt(r), entryAt(l)) ? r : l;
          if (!before(entryAt(c), entryAt(k))) break;
          [frontier[k], frontier[c]] = [frontier[c] as number, frontier[k] as number];
          k = c;
        }
      }
      for (const child of [2 * i + 1, 2 * i + 2]) {
        if (child >= heap.length) continue;
        let k = frontier.push(child) - 1;
        while (k > 0) {
          const parent = (k - 1) >> 1;
          if (!before(entryAt(k), entryAt(parent))) break;
          [frontier[k], frontier[parent]] = [frontier[parent] as number, frontier[k] as number];
          k = parent;
        }
      }
      if (this.isLive(entry) && !visit(entry)) return;
    }
  }

  private rebuild(): void {
    const live = this.heap.filter(this.isLive);
    live.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    // A sorted array is a heap.
    this.heap = live;
    this.stale = 0;
  }
}
