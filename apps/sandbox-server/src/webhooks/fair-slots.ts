/**
 * At most `total` callbacks at once over every key, and at most `perKey` of one key: one tenant's
 * silent receivers hold at most `perKey` places, so the others always find one free. When a place
 * frees, the keys waiting take turns (round robin), so a key with a long queue never starves one
 * that queued a single callback after it.
 */
export class FairSlots {
  private busy = 0;
  private readonly busyOf = new Map<string, number>();
  /** Waiting callbacks per key, in arrival order; a key is in the map only while it has some. */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly total: number,
    private readonly perKey: number,
  ) {}

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if (this.canStart(key)) this.take(key);
    else await new Promise<void>((resolve) => this.queueOf(key).push(resolve));
    try {
      return await fn();
    } finally {
      this.release(key);
    }
  }

  /** Places in use, over every key and for one (what a test or a metric reads). */
  inUse(key?: string): number {
    return key === undefined ? this.busy : (this.busyOf.get(key) ?? 0);
  }

  private canStart(key: string): boolean {
    return this.busy < this.total && (this.busyOf.get(key) ?? 0) < this.perKey && !this.waiting.has(key);
  }

  private take(key: string): void {
    this.busy += 1;
    this.busyOf.set(key, (this.busyOf.get(key) ?? 0) + 1);
  }

  private queueOf(key: string): (() => void)[] {
    let queue = this.waiting.get(key);
    if (!queue) this.waiting.set(key, (queue = []));
    return queue;
  }

  private release(key: string): void {
    this.busy -= 1;
    const left = (this.busyOf.get(key) ?? 1) - 1;
    if (left === 0) this.busyOf.delete(key);
    else this.busyOf.set(key, left);
    this.startNext();
  }

  /**
   * Gives the free place to the first waiting key, in the order keys started waiting, that is under
   * its own cap; that key then goes to the back of the line (a Map keeps insertion order, so
   * deleting and re-adding it is the rotation).
   */
  private startNext(): void {
    if (this.busy >= this.total) return;
    for (const [key, queue] of this.waiting) {
      if ((this.busyOf.get(key) ?? 0) >= this.perKey) continue;
      const next = queue.shift() as () => void;
      this.waiting.delete(key);
      if (queue.length > 0) this.waiting.set(key, queue);
      this.take(key);
      next();
      return;
    }
  }
}
