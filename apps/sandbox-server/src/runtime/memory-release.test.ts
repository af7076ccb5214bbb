import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleMemoryRelease, lastResortCollection, type IdleReleaseOptions, type MemoryRelease } from './memory-release.js';

const MB = 1024 ** 2;

describe('lastResortCollection', () => {
  it('frees what nothing refers to any more, without --expose-gc on the command line', () => {
    const collect = lastResortCollection();
    if (!collect) throw new Error('this Node gives no collection');
    const holder: { dropped?: { n: number; text: string }[] } = { dropped: Array.from({ length: 300_000 }, (_, n) => ({ n, text: `record ${n}` })) };
    const held = process.memoryUsage().heapUsed;
    delete holder.dropped;
    collect();
    // About 20 MB of objects; a collection that missed them would leave all of it.
    expect(held - process.memoryUsage().heapUsed).toBeGreaterThan(10 * MB);
  });

  it('leaves no gc function behind in the contexts created after it', async () => {
    lastResortCollection();
    const { runInNewContext } = await import('node:vm');
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});

describe('IdleMemoryRelease', () => {
  let now: number;
  let resident: number;
  let collections: number;
  let releases: MemoryRelease[];
  let release: IdleMemoryRelease;
  let heapUsed: number;
  let queued: number;

  beforeEach(() => {
    vi.useFakeTimers();
    now = 0;
    resident = 100 * MB;
    collections = 0;
    releases = [];
    heapUsed = 70 * MB;
    queued = 0;
    release = make();
  });

  /** The release under test, as each test starts it; `changes` replace its options. */
  const make = (changes: Partial<IdleReleaseOptions> = {}) =>
    new IdleMemoryRelease({
      idleMs: 10_000,
      minGrowthBytes: 32 * MB,
      maxHeapBytes: 1024 * MB,
      busy: () => queued > 0,
      recheckMs: 1000,
      readHeapUsed: () => heapUsed,
      collect: () => {
        collections += 1;
        now += 40;
        resident = 110 * MB;
      },
      readResident: () => resident,
      onRelease: (r) => releases.push(r),
      nowMs: () => now,
      ...changes,
    });

  afterEach(() => {
    release.stop();
    vi.useRealTimers();
  });

  const request = () => {
    release.requestStarted();
    release.requestEnded();
  };

  const advance = (ms: number) => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };

  it('releases once requests have stopped for the quiet time, and reports what it freed and its pause', () => {
    request();
    resident = 400 * MB;
    advance(9_999);
    expect(collections).toBe(0);
    advance(1);
    expect(collections).toBe(1);
    expect(releases).toEqual([{ heapUsedBytes: 70 * MB, residentBeforeBytes: 400 * MB, residentAfterBytes: 110 * MB, pauseMs: 40 }]);
  });

  it('waits for the quiet time again after every request', () => {
    request();
    resident = 400 * MB;
    advance(6_000);
    request();
    advance(6_000);
    expect(collections).toBe(0);
    advance(4_000);
    expect(collections).toBe(1);
  });

  it('does not stop the process when memory grew by less than the minimum since the last release', () => {
    request();
    resident = 131 * MB;
    advance(10_000);
    expect(collections).toBe(0);
    request();
    resident = 133 * MB;
    advance(10_000);
    expect(collections).toBe(1);
    // Measured from what the last release left (110 MB), not from the start.
    request();
    resident = 141 * MB;
    advance(10_000);
    expect(collections).toBe(1);
  });

  it('releases after every quiet time with a minimum of 0, even when memory shrank since the last release', () => {
    release.stop();
    release = make({ minGrowthBytes: 0 });
    request();
    advance(10_000);
    expect(collections).toBe(1);
    // The collection left 110 MB; memory shrank below that since.
    resident = 90 * MB;
    request();
    advance(10_000);
    expect(collections).toBe(2);
  });

  it('waits for the work that follows a burst, checking again until it is done', () => {
    request();
    resident = 400 * MB;
    queued = 5_000;
    advance(10_000);
    advance(2_000);
    expect(collections).toBe(0);
    queued = 0;
    advance(1_000);
    expect(collections).toBe(1);
  });

  it('leaves a heap too large to collect without a long pause as it is', () => {
    request();
    resident = 3000 * MB;
    heapUsed = 1500 * MB;
    advance(30_000);
    expect(collections).toBe(0);
  });

  it('never releases while a request is still open, however long it takes', () => {
    release.requestStarted();
    resident = 400 * MB;
    advance(45_000);
    expect(collections).toBe(0);
    release.requestEnded();
    advance(9_999);
    expect(collections).toBe(0);
    advance(1_000);
    expect(collections).toBe(1);
  });

  it('never releases without a request, nor after stop, even for requests that come later', () => {
    resident = 900 * MB;
    advance(60_000);
    expect(collections).toBe(0);
    request();
    release.stop();
    request();
    advance(60_000);
    expect(collections).toBe(0);
  });
});
