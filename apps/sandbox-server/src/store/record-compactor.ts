import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { TextSlabs } from './text-slabs.js';

/**
 * Marks a record's bytes as compressed: JSON text never starts with it. The next byte is the
 * number of the dictionary it was compressed with.
 */
const MARK = 1;
/** Shorter records gain less from compression than reading them back costs: they are kept as they are. */
const MIN_LENGTH = 200;
/**
 * A 16 KB window: a dictionary (one record's text) and the record being compressed both fit,
 * and each compression allocates a quarter of what the default window would.
 */
const WINDOW_BITS = 14;
/**
 * zlib's output buffer per inflate. Its default, 16 KB, is allocated outside the heap at every
 * call, mostly unused (an inflated payment takes about 1,500 bytes), and on Node 24 that churn
 * alone started full collections: 20,000 inflates ran 4 of them and took 387 ms of CPU, against
 * 1 and 258 ms with 4 KB buffers, and 2 KB measured the same as 4 KB (docs/benchmarks.md,
 * "zlib's output buffers"). Under 4 KB, Node cuts the buffer from its shared 8 KB pool instead
 * of allocating one. A longer output takes more than one buffer, joined by zlib's own code.
 */
const INFLATE_CHUNK_BYTES = 2048;
/**
 * zlib's output buffer per deflate. A compressed payment takes about 130 bytes, its idempotency
 * record about 300: 512 bytes cut from Node's pool hold most records in one buffer, where 4 KB
 * was a buffer of its own per record, freed only by a later collection. Between collections those
 * buffers pile up in the C library's heap, which hands back only what is at its top
 * (docs/benchmarks.md, "Memory handed back once requests stop").
 */
const DEFLATE_CHUNK_BYTES = 512;
/** Dictionaries in all: their numbers fit in the byte after `MARK`. */
const MAX_DICTIONARIES = 255;
/** Dictionaries one kind may take: its first, and a few more when records of another shape come. */
const MAX_PER_KIND = 8;
/** A record compressed to more than this share of its text gets a dictionary of its own shape. */
const REFIT_SHARE = 0.25;
/**
 * While requests are being served, a slice of compaction takes at most this long, once per
 * `BUSY_PAUSE_MS`: 1 % of the process's time, so a sandbox under full load loses about 1 % of
 * its throughput to it (at 1 ms every 20 ms, profiles of payment load showed 7-8 %).
 */
const BUSY_SLICE_MS = 1;
const BUSY_PAUSE_MS = 100;
/** Once no transaction committed for `IDLE_AFTER_MS`, slices of this length follow each other (yielding between). */
const IDLE_AFTER_MS = 20;
const IDLE_SLICE_MS = 10;

/** When stored records are compressed (`RecordCompactor`). */
export type Compaction = 'between-requests' | 'at-commit' | 'off';

/**
 * A stored record as its table keeps it: its JSON text, until it is compacted, then the slot of
 * its bytes outside the heap (text-slabs.ts).
 */
export type StoredText = string | number;
/** Where a stored record lives: its table's map by id. */
type Records = Map<string, StoredText>;

/**
 * Keeps stored records small, and out of the collector's way: after its commit each record moves
 * out of V8's heap into slabs (text-slabs.ts), so the work of every collection stops growing with
 * what the store holds. A record of `MIN_LENGTH` or more characters is compressed (deflate) on
 * the way, with a dictionary of its kind: the text of the first record of that kind it
 * compacted, replaced (up to `MAX_PER_KIND` times) by a record it compressed poorly. Records of
 * one kind share almost all their keys and many of their values, so with it a stored payment's
 * idempotency record (its whole response) goes from about 6,500 bytes to about 300, the payment
 * from about 1,500 to about 130.
 *
 * Compression costs tens of microseconds a record, which the request that wrote it does not pay:
 * records are queued at commit and compacted between requests, in slices of at most 1 ms every
 * 100 ms while transactions keep committing, and back to back (yielding between slices) once the
 * store has been idle for 20 ms: under constant load the queue grows, and it is worked off at
 * the first pause. A record read while still queued is read as written. Reading a
 * compacted record inflates it first (a few microseconds for a payment).
 */
export class RecordCompactor {
  private readonly slabs = new TextSlabs();
  private readonly dictionaries: Buffer[] = [];
  /** The dictionary each kind compresses with now (older ones stay: records compressed with them read through them). */
  private readonly dictionaryOf = new Map<string, number>();
  private readonly refitted = new Map<string, number>();
  /**
   * The text being compressed, as UTF-8: zlib would otherwise convert each record into a buffer
   * of its own (a slice of Node's 8 KB pool for most records, a fresh allocation for those over
   * 4 KB, such as a payment's idempotency record), freed only by a later collection. A record
   * longer than the window is rare and passed as it is.
   */
  private readonly scratch = Buffer.allocUnsafeSlow(1 << WINDOW_BITS);
  private queuedRecords: Records[] = [];
  private queuedIds: string[] = [];
  private queuedKinds: string[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastCommitMs = 0;

  /**
   * `between-requests` as above; `at-commit` compacts each record in its commit (what a test
   * needs to read compacted records back at once); `off` keeps records as written.
   */
  constructor(private readonly mode: Compaction = 'between-requests') {}

  private get enabled(): boolean {
    return this.mode !== 'off';
  }

  /** A record just committed: compacted later. */
  written(kind: string, records: Records, id: string): void {
    if (!this.enabled) return;
    if (this.mode === 'at-commit') return this.compact(kind, records, id);
    this.queuedRecords.push(records);
    this.queuedIds.push(id);
    this.queuedKinds.push(kind);
    this.schedule(IDLE_AFTER_MS);
  }

  /** A transaction committed now: compaction stays in small slices for a while. */
  committed(): void {
    if (this.enabled) this.lastCommitMs = performance.now();
  }

  /** The JSON text of a stored record, compacted or not. */
  text(stored: StoredText): string {
    if (typeof stored === 'string') return stored;
    const bytes = this.slabs.view(stored);
    if (bytes[0] !== MARK) return bytes.toString();
    const dictionary = this.dictionaries[bytes[1] as number] as Buffer;
    return inflateRawSync(bytes.subarray(2), { dictionary, windowBits: WINDOW_BITS, chunkSize: INFLATE_CHUNK_BYTES }).toString();
  }

  /** A stored record was replaced or deleted: the bytes of a compacted one are freed. */
  released(stored: StoredText | undefined): void {
    if (typeof stored === 'number') this.slabs.free(stored);
  }

  /** The bytes a stored record takes: its text's characters, or once compacted its bytes outside the heap. */
  size(stored: StoredText): number {
    return typeof stored === 'string' ? stored.length : this.slabs.view(stored).length;
  }

  /** Bytes the compacted records take outside the heap (with the holes freed ones left). */
  get offHeapBytes(): number {
    return this.slabs.heldBytes;
  }

  /** Records waiting to be compacted. */
  get queued(): number {
    return this.queuedIds.length - this.next;
  }

  /** Compacts every queued record now (for a caller that must know memory is as small as it gets). */
  flush(): void {
    while (this.queued > 0) this.slice(Number.POSITIVE_INFINITY);
  }

  /** Stops the timer: nothing more is compacted. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const busy = performance.now() - this.lastCommitMs < IDLE_AFTER_MS;
      this.slice(busy ? BUSY_SLICE_MS : IDLE_SLICE_MS);
      if (this.queued > 0) this.schedule(busy ? BUSY_PAUSE_MS : 0);
    }, delayMs);
    // A queue never keeps the process alive.
    this.timer.unref();
  }

  /** Compacts queued records for about `budgetMs`. */
  private slice(budgetMs: number): void {
    const until = performance.now() + budgetMs;
    let done = 0;
    while (this.next < this.queuedIds.length) {
      const k = this.next;
      this.next += 1;
      this.compact(this.queuedKinds[k] as string, this.queuedRecords[k] as Records, this.queuedIds[k] as string);
      // The clock is read every few records: reading it costs more than a short record's check.
      done += 1;
      if (done % 4 === 0 && performance.now() >= until) break;
    }
    if (this.next === this.queuedIds.length || this.next > 4096) {
      this.queuedRecords = this.queuedRecords.slice(this.next);
      this.queuedIds = this.queuedIds.slice(this.next);
      this.queuedKinds = this.queuedKinds.slice(this.next);
      this.next = 0;
    }
  }

  private compact(kind: string, records: Records, id: string): void {
    const text = records.get(id);
    // Deleted, or compacted already (written twice before its turn).
    if (typeof text !== 'string') return;
    const compressed = text.length < MIN_LENGTH ? undefined : this.compressed(kind, text);
    records.set(id, compressed ? this.slabs.put(compressed.bytes, compressed.header) : this.slabs.putText(text));
  }

  /** `text` compressed with its kind's dictionary and the header naming it, or undefined when that does not make it shorter. */
  private compressed(kind: string, text: string): { header: Uint8Array; bytes: Buffer } | undefined {
    let number = this.dictionaryOf.get(kind);
    let bytes = number === undefined ? undefined : this.compress(text, number);
    // The kind's dictionary does not fit this record (the first of the kind was of another
    // shape: a customer with one field, a different operation's idempotency record): the record
    // becomes the kind's dictionary from now on, while there are dictionaries left.
    if ((bytes === undefined || bytes.length > text.length * REFIT_SHARE) && this.dictionaries.length < MAX_DICTIONARIES && this.refits(kind) < MAX_PER_KIND) {
      number = this.dictionaries.push(Buffer.from(text)) - 1;
      this.dictionaryOf.set(kind, number);
      this.refitted.set(kind, this.refits(kind) + 1);
      bytes = this.compress(text, number);
    }
    if (number === undefined || bytes === undefined || bytes.length + 2 >= Buffer.byteLength(text)) return undefined;
    return { header: Uint8Array.of(MARK, number), bytes };
  }

  private refits(kind: string): number {
    return this.refitted.get(kind) ?? 0;
  }

  /** `text` compressed with dictionary `number`. */
  private compress(text: string, number: number): Buffer {
    const length = Buffer.byteLength(text);
    const input = length <= this.scratch.length ? this.scratch.subarray(0, this.scratch.write(text)) : text;
    return deflateRawSync(input, { dictionary: this.dictionaries[number] as Buffer, windowBits: WINDOW_BITS, level: 6, chunkSize: DEFLATE_CHUNK_BYTES });
  }
}
