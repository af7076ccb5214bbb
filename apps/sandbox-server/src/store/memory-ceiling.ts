import { getHeapStatistics } from 'node:v8';
import { DomainError } from '../domain/errors.js';

/** What the ceiling compares: the process's resident memory, and V8's heap against the size it may grow to. */
export interface MemoryReading {
  residentBytes: number;
  heapUsedBytes: number;
  heapLimitBytes: number;
}

export const readMemory = (): MemoryReading => {
  const heap = getHeapStatistics();
  return { residentBytes: process.memoryUsage.rss(), heapUsedBytes: heap.used_heap_size, heapLimitBytes: heap.heap_size_limit };
};

/**
 * Share of V8's heap limit past which new records are refused whatever the configured ceiling:
 * at the limit itself the process dies ("JavaScript heap out of memory"), and the collector's
 * last-resort passes before it stall every request. The rest leaves room for requests in flight.
 */
export const HEAP_SHARE = 0.85;

/**
 * How often memory is read again at most. Reading resident memory reads a file of /proc, which
 * took 1.6 % of the sandbox's CPU under payment load when read every 100 ms on a busy machine;
 * at 2,000 payments a second the process grows about 5 MB in half a second.
 */
const SAMPLE_EVERY_MS = 500;

/**
 * How often, at most, the ceiling asks for a collection that hands memory back before refusing.
 * Resident memory counts the pages V8 keeps for reuse after a burst of writes; Node 24 keeps
 * them until such a collection (runtime/memory-release.ts). It stops the process for 200 to 700 ms
 * on heaps of 70 to 770 MB, as V8 itself does near its heap limit, inside the write that found
 * the limit; once every 10 s bounds that to under a tenth of the time of a sandbox held at its
 * ceiling, where the other way is to refuse writes that the memory given back would have taken.
 */
const RECLAIM_EVERY_MS = 10_000;

/** Bytes as the refusal names them. */
const mb = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;

/**
 * The memory store's answer to a new record once the process holds as much as it may: 429
 * TOO_MANY_REQUESTS, upstream's status for a request it will not take now (docs/sandbox.md,
 * "Memory ceiling"). Not a server fault in the contract's sense, but no resource was made: an
 * idempotency key is released, so the same request may be sent again once memory is freed.
 */
export class MemoryCeilingReached extends DomainError {
  constructor(reason: string) {
    super('TOO_MANY_REQUESTS', [`the sandbox refuses new records: ${reason}`, 'reads, updates and deletions still work; POST /sandbox/reset or a higher SANDBOX_MEMORY_LIMIT makes room']);
    this.name = 'MemoryCeilingReached';
  }
}

/** What a ceiling is built from. Only the limit is the user's; the rest default to the process's own, and tests replace them. */
export interface MemoryCeilingOptions {
  /** The configured limit on resident memory (`--memory-limit`); none by default. */
  limitBytes?: number;
  /** Hands back what the process holds and no longer needs, before resident memory is judged at its limit. */
  reclaim?: () => void;
  read?: () => MemoryReading;
  sampleEveryMs?: number;
  nowMs?: () => number;
}

/**
 * The memory store's ceiling: the configured limit on resident memory (`--memory-limit`), and
 * always `HEAP_SHARE` of the heap V8 may grow to, so the process refuses before it would die.
 * Read at most every `SAMPLE_EVERY_MS`, on the writes that ask; at the limit, memory is reclaimed
 * first (at most every `RECLAIM_EVERY_MS`) and read again.
 */
export class MemoryCeiling {
  readonly limitBytes: number | undefined;
  private readonly read: () => MemoryReading;
  private readonly sampleEveryMs: number;
  private readonly nowMs: () => number;
  private readonly reclaim: (() => void) | undefined;
  private lastReadMs = Number.NEGATIVE_INFINITY;
  private lastReclaimMs = Number.NEGATIVE_INFINITY;
  private reason: string | undefined;

  constructor(options: MemoryCeilingOptions = {}) {
    this.limitBytes = options.limitBytes;
    this.read = options.read ?? readMemory;
    this.sampleEveryMs = options.sampleEveryMs ?? SAMPLE_EVERY_MS;
    this.nowMs = options.nowMs ?? (() => performance.now());
    this.reclaim = options.reclaim;
  }

  /**
   * Why new records are refused now, or undefined while there is room. `offHeapBytes`, what the
   * store keeps outside V8's heap, counts with the heap against its share: those records were
   * on the heap until compacted, and the share is the default bound on what the store may hold.
   */
  reached(offHeapBytes = 0): string | undefined {
    const now = this.nowMs();
    if (now - this.lastReadMs < this.sampleEveryMs) return this.reason;
    this.lastReadMs = now;
    let m = this.read();
    if (this.limitBytes !== undefined && m.residentBytes >= this.limitBytes && this.reclaim && now - this.lastReclaimMs >= RECLAIM_EVERY_MS) {
      this.lastReclaimMs = now;
      this.reclaim();
      m = this.read();
    }
    if (this.limitBytes !== undefined && m.residentBytes >= this.limitBytes) this.reason = `the process holds ${mb(m.residentBytes)} resident, at or past its memory limit of ${mb(this.limitBytes)}`;
    else if (m.heapUsedBytes + offHeapBytes >= HEAP_SHARE * m.heapLimitBytes) this.reason = `its heap and the records it keeps outside it hold ${mb(m.heapUsedBytes + offHeapBytes)} of the ${mb(m.heapLimitBytes)} Node allows its heap (--max-old-space-size)`;
    else this.reason = undefined;
    return this.reason;
  }

  /** Throws `MemoryCeilingReached` when new records are refused now. */
  check(offHeapBytes = 0): void {
    const reason = this.reached(offHeapBytes);
    if (reason !== undefined) throw new MemoryCeilingReached(reason);
  }
}
