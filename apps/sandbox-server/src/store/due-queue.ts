import { grownFloat64, grownInt32 } from './typed-arrays.js';

/**
 * Entries a queue makes room for at its first; its arrays double when full. A queue nothing was
 * pushed to holds empty arrays: every kind of every merchant has two queues, and most kinds
 * never have due work.
 */
const FIRST_ROOM = 64;

/**
 * The due work of one lane of one kind, earliest first: a binary heap. Finding the earliest
 * `limit` entries reads about `limit` of them whatever the lane holds, where a scan of every
 * entry grew with the stored data (every event and idempotency record has retention work).
 *
 * Each entry is a number: the record's id, when it falls due (`at`, which never changes: due work
 * that changes is a new entry) and its place in its table's insertion order (equal times go in
 * that order, as PostgreSQL's `ORDER BY due_at, seq`) sit in arrays at that number, the times
 * and places in typed arrays. A queue of a million entries is then a few large arrays for the
 * collector to mark, not a million objects with a boxed number each (with a million payments
 * and customers stored, those objects were a fifth of the live heap).
 *
 * An entry that is no longer its record's (`isLive`) stays behind until stale entries outnumber
 * live ones; then the queue is rebuilt from the live ones, a cost spread over the changes that
 * made it necessary. A rebuild numbers the live entries anew, and tells `renumbered` each one's
 * new number, so whoever keeps entry numbers can follow.
 */
export class DueQueue {
  private ids: string[] = [];
  private at = new Float64Array(0);
  /** Places are positions in an insertion order, which a rebuild keeps within about twice the live records: far below 2^31. */
  private place = new Int32Array(0);
  /** Entry numbers in heap order. Every entry made since the last rebuild is in it, stale or not, so it holds `ids.length` of them. */
  private heap = new Int32Array(0);
  private stale = 0;

  constructor(
    private readonly isLive: (id: string, entry: number) => boolean,
    private readonly renumbered: (id: string, entry: number) => void,
  ) {}

  /** Entries held, stale ones included. */
  get held(): number {
    return this.ids.length;
  }

  idOf(entry: number): string {
    return this.ids[entry] as string;
  }

  atOf(entry: number): number {
    return this.at[entry] as number;
  }

  placeOf(entry: number): number {
    return this.place[entry] as number;
  }

  /**
   * The entry's record took a new place (an insertion order's rebuild renumbers its live members).
   * Stale entries keep their old places, so once every live entry has moved, `reordered` must
   * follow before the queue is read or written again.
   */
  moved(entry: number, place: number): void {
    this.place[entry] = place;
  }

  /**
   * Puts the queue back in order after its live entries moved: stale entries kept their places,
   * and a live entry now placed before its stale parent would break the heap's order. The stale
   * entries are dropped and the live ones sorted, as when stale ones outnumber them.
   */
  reordered(): void {
    this.rebuild();
  }

  /** Queues due work for the record `id`; returns the entry's number. */
  push(id: string, at: number, place: number): number {
    const entry = this.ids.push(id) - 1;
    if (entry === this.at.length) {
      const size = Math.max(FIRST_ROOM, this.at.length * 2);
      this.at = grownFloat64(this.at, size);
      this.place = grownInt32(this.place, size);
      this.heap = grownInt32(this.heap, size);
    }
    this.at[entry] = at;
    this.place[entry] = place;
    const heap = this.heap;
    let i = entry;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = heap[parent] as number;
      if (!this.before(entry, above)) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = entry;
    return entry;
  }

  /** An entry stopped being its record's (the record left, or its due work changed). */
  dropped(): void {
    this.stale += 1;
    if (this.stale > this.ids.length / 2 + 16) this.rebuild();
  }

  /**
   * Live entries due at or before `untilMs`, earliest first, for as long as `visit` returns true:
   * a best-first walk down the heap, so it reads the entries it visits and their children only.
   */
  earliest(untilMs: number, visit: (entry: number) => boolean): void {
    const heap = this.heap;
    const size = this.ids.length;
    if (size === 0) return;
    // Heap positions to read next, itself a heap ordered by the entries they hold.
    const frontier: number[] = [0];
    const entryAt = (k: number) => heap[frontier[k] as number] as number;
    while (frontier.length > 0) {
      const i = frontier[0] as number;
      const entry = heap[i] as number;
      if ((this.at[entry] as number) > untilMs) return;
      // Take the first position off the frontier.
      const last = frontier.pop() as number;
      if (frontier.length > 0) {
        let k = 0;
        frontier[0] = last;
        for (;;) {
          const l = 2 * k + 1;
          if (l >= frontier.length) break;
          const r = l + 1;
          const c = r < frontier.length && this.before(entryAt(r), entryAt(l)) ? r : l;
          if (!this.before(entryAt(c), entryAt(k))) break;
          [frontier[k], frontier[c]] = [frontier[c] as number, frontier[k] as number];
          k = c;
        }
      }
      for (const child of [2 * i + 1, 2 * i + 2]) {
        if (child >= size) continue;
        let k = frontier.push(child) - 1;
        while (k > 0) {
          const parent = (k - 1) >> 1;
          if (!this.before(entryAt(k), entryAt(parent))) break;
          [frontier[k], frontier[parent]] = [frontier[parent] as number, frontier[k] as number];
          k = parent;
        }
      }
      if (this.isLive(this.ids[entry] as string, entry) && !visit(entry)) return;
    }
  }

  private before(a: number, b: number): boolean {
    const at = this.at;
    return (at[a] as number) < (at[b] as number) || (at[a] === at[b] && (this.place[a] as number) < (this.place[b] as number));
  }

  private rebuild(): void {
    const live: number[] = [];
    for (let entry = 0; entry < this.ids.length; entry += 1) if (this.isLive(this.ids[entry] as string, entry)) live.push(entry);
    live.sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
    // Renumbered in that order, the entries are sorted by number, and a sorted array is a heap.
    const ids: string[] = [];
    const size = live.length === 0 ? 0 : Math.max(FIRST_ROOM, live.length * 2);
    const at = new Float64Array(size);
    const place = new Int32Array(size);
    const heap = new Int32Array(size);
    live.forEach((entry, k) => {
      ids.push(this.ids[entry] as string);
      at[k] = this.at[entry] as number;
      place[k] = this.place[entry] as number;
      heap[k] = k;
    });
    this.ids = ids;
    this.at = at;
    this.place = place;
    this.heap = heap;
    this.stale = 0;
    ids.forEach((id, entry) => this.renumbered(id, entry));
  }
}
