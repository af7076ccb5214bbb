import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's collector as `--expose-gc` gives it. */
type Collector = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * How `gc` is asked for a full collection differs by V8. Measured on 20 MB of dropped objects:
 * on Node 20 (V8 11) `gc()` freed them and any options object made it free nothing; on Node 22
 * and 24 (V8 12 and 13) `gc()` freed nothing and `{ type: 'major', execution: 'sync' }` freed them.
 * The last-resort flavour, where V8 takes it, repeats the collection while it frees anything and
 * hands back the pages V8 keeps for reuse, as V8 itself does under memory pressure.
 */
const TAKES_OPTIONS = Number(process.versions.v8.split('.')[0]) >= 12;

/**
 * A function that runs a full collection of the kind V8 runs under memory pressure, or undefined
 * where the runtime does not give one. Node gives no API for it; `gc` is the collector's own
 * entry point, which `--expose-gc` installs in every context created while the flag is set. The
 * flag is set for the one context this creates, then cleared again, so the command line needs no
 * flag (test runners that detect leaks obtain it the same way). Made once per process: every
 * sandbox of the process shares it. A process started with `--expose-gc` has it already.
 */
export function lastResortCollection(): (() => void) | undefined {
  if (made === undefined) made = { collect: makeCollection() };
  return made.collect;
}

let made: { collect: (() => void) | undefined } | undefined;

function makeCollection(): (() => void) | undefined {
  let gc = (globalThis as { gc?: Collector }).gc;
  if (!gc) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as Collector;
    } catch {
      // A runtime that refuses the flag, or installs no `gc` with it: memory is left to V8.
      return undefined;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  const collect = gc;
  return TAKES_OPTIONS ? () => collect({ type: 'major', execution: 'sync', flavor: 'last-resort' }) : () => collect();
}

/** One release, as it is logged. */
export interface MemoryRelease {
  /** V8's heap in use before the collection: what the pause grows with. */
  heapUsedBytes: number;
  /** The process's resident memory right before the collection. */
  residentBeforeBytes: number;
  /** The same right after it: the difference is what was handed back to the system. */
  residentAfterBytes: number;
  /** How long the collection stopped the process. */
  pauseMs: number;
}

export interface IdleReleaseOptions {
  /** Quiet time, without a request, after which memory is released. */
  idleMs: number;
  /** Resident growth since the last release below which a release is not worth its pause; 0 releases after every quiet time. */
  minGrowthBytes: number;
  /** A heap larger than this is not collected: the pause grows with it (see `MemoryRelease`). */
  maxHeapBytes: number;
  /** Work the process still does between requests (compaction) that frees heap: a release waits for it, checking every `recheckMs`. */
  busy: () => boolean;
  recheckMs: number;
  collect: () => void;
  readResident: () => number;
  readHeapUsed: () => number;
  onRelease: (release: MemoryRelease) => void;
  nowMs?: () => number;
}

/**
 * Hands back the memory a burst of requests grew, once requests stop. V8's memory reducer, which
 * should, keeps postponing after a burst on Node 24 (it judges the allocation rate by the last
 * collections, all of them under load), so a sandbox that stored 30,000 customers kept about 10 KB
 * per customer where one last-resort collection leaves 3.5 KB; on Node 22 and 20 it handed nothing
 * back in the 9 to 40 s watched (docs/benchmarks.md, "Memory handed back once requests stop").
 *
 * The collection stops the process for its length, so it runs only when nobody is waiting: after
 * `idleMs` without a request and with none in flight, once the work that follows a burst is done, and only when resident
 * memory grew by `minGrowthBytes` since the last one, so a sandbox that serves a request now and
 * then does not pay it each time. Its pause grows with the heap: 200 ms with 74 MB of heap in use
 * and 700 ms with 770 MB on Node 24 (docs/benchmarks.md), so a heap above `maxHeapBytes` is left
 * as it is.
 */
export class IdleMemoryRelease {
  private lastActivityMs = Number.NEGATIVE_INFINITY;
  private inFlight = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private residentAfterLast: number;
  private readonly nowMs: () => number;

  constructor(private readonly o: IdleReleaseOptions) {
    this.nowMs = o.nowMs ?? (() => performance.now());
    this.residentAfterLast = o.readResident();
  }

  /**
   * A request arrived: a release waits until it has been answered and `idleMs` more have passed
   * without another (a request may stay open longer than that: simulated provider latency, faults).
   */
  requestStarted(): void {
    this.inFlight += 1;
    this.lastActivityMs = this.nowMs();
    if (this.timer === undefined && !this.stopped) this.schedule(this.o.idleMs);
  }

  /** A request was answered, or its connection closed. */
  requestEnded(): void {
    this.inFlight -= 1;
    this.lastActivityMs = this.nowMs();
  }

  /** No release after this, whatever arrives later. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => this.check(), delayMs);
    // Waiting to release never keeps the process alive.
    this.timer.unref();
  }

  private check(): void {
    this.timer = undefined;
    const quietMs = this.nowMs() - this.lastActivityMs;
    if (quietMs < this.o.idleMs) return this.schedule(this.o.idleMs - quietMs);
    if (this.inFlight > 0 || this.o.busy()) return this.schedule(this.o.recheckMs);
    const before = this.o.readResident();
    if (this.o.minGrowthBytes > 0 && before - this.residentAfterLast < this.o.minGrowthBytes) return;
    const heapUsedBytes = this.o.readHeapUsed();
    if (heapUsedBytes > this.o.maxHeapBytes) return;
    const started = this.nowMs();
    this.o.collect();
    const pauseMs = this.nowMs() - started;
    this.residentAfterLast = this.o.readResident();
    this.o.onRelease({ heapUsedBytes, residentBeforeBytes: before, residentAfterBytes: this.residentAfterLast, pauseMs });
  }
}
