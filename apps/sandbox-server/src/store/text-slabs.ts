import { grownInt32 } from './typed-arrays.js';

/**
 * Bytes of one slab: a few thousand records each, so slabs are rarely opened, and emptying one
 * copies at most half of it.
 */
const SLAB_BYTES = 4 * 1024 * 1024;
/** A slab no longer written to is emptied into the current one once less than this share of what it holds is live. */
const EVACUATE_BELOW = 0.5;
/** Slots the tables start with; they double when full. */
const INITIAL_SLOTS = 1024;

/**
 * Stored records' bytes outside V8's heap: in large buffers (slabs), each record found through a
 * slot, a small integer whose slab, offset and length sit in typed arrays. The collector marks a
 * handful of buffers instead of one string per record, so its work no longer grows with what the
 * store holds: with six million records of 200 bytes, a full collection took 0.5 to 1.3 s with
 * them in slabs, against 5 to 8 s with each a string on the heap (one process, `gc()` five times).
 *
 * Records are appended to the current slab. A freed record leaves a hole; a slab no longer
 * written to that falls under half live has its records copied to the current slab (their slots
 * stay the same) and is released, so the bytes held stay within about twice the live ones.
 */
export class TextSlabs {
  private readonly slabs: (Buffer | undefined)[] = [];
  /** Per slab: bytes written (its end), bytes still live, and the slots placed in it (some since moved or freed). */
  private readonly used: number[] = [];
  private readonly live: number[] = [];
  private readonly placed: Int32Array<ArrayBuffer>[] = [];
  private readonly placedCount: number[] = [];
  private readonly releasedSlabs: number[] = [];
  private current = -1;
  private slabOf = new Int32Array(INITIAL_SLOTS);
  private offsetOf = new Int32Array(INITIAL_SLOTS);
  private lengthOf = new Int32Array(INITIAL_SLOTS);
  private freeSlots = new Int32Array(INITIAL_SLOTS);
  private freeCount = 0;
  private nextSlot = 0;
  private held = 0;

  /** Bytes the slabs take, live or not: what the store holds outside the heap. */
  get heldBytes(): number {
    return this.held;
  }

  /** Keeps `prefix` then `body` as one record; its slot reads them back. */
  put(body: Uint8Array, prefix?: Uint8Array): number {
    const length = body.length + (prefix?.length ?? 0);
    const { slot, buffer, offset } = this.place(this.newSlot(), length);
    if (prefix) buffer.set(prefix, offset);
    buffer.set(body, offset + (prefix?.length ?? 0));
    return slot;
  }

  /** Keeps `text` as UTF-8, written straight into its slab. */
  putText(text: string): number {
    const { slot, buffer, offset } = this.place(this.newSlot(), Buffer.byteLength(text));
    buffer.write(text, offset);
    return slot;
  }

  /** A record's bytes, as a view into its slab: valid until the next put or free. */
  view(slot: number): Buffer {
    const offset = this.offsetOf[slot] as number;
    return (this.slabs[this.slabOf[slot] as number] as Buffer).subarray(offset, offset + (this.lengthOf[slot] as number));
  }

  /** Forgets a record: its slot may be handed out again. */
  free(slot: number): void {
    const slab = this.slabOf[slot] as number;
    // Freed twice, its slot would be handed out twice: two records would share it.
    if (slab < 0) throw new Error(`slot ${slot} is not held`);
    this.live[slab] = (this.live[slab] as number) - (this.lengthOf[slot] as number);
    this.slabOf[slot] = -1;
    if (this.freeCount === this.freeSlots.length) this.freeSlots = grownInt32(this.freeSlots, this.freeSlots.length * 2);
    this.freeSlots[this.freeCount] = slot;
    this.freeCount += 1;
    this.tidy(slab);
  }

  private newSlot(): number {
    if (this.freeCount > 0) {
      this.freeCount -= 1;
      return this.freeSlots[this.freeCount] as number;
    }
    if (this.nextSlot === this.slabOf.length) {
      const size = this.slabOf.length * 2;
      this.slabOf = grownInt32(this.slabOf, size);
      this.offsetOf = grownInt32(this.offsetOf, size);
      this.lengthOf = grownInt32(this.lengthOf, size);
    }
    this.nextSlot += 1;
    return this.nextSlot - 1;
  }

  /** Makes room for `length` bytes of `slot`: where the caller writes them. */
  private place(slot: number, length: number): { slot: number; buffer: Buffer; offset: number } {
    const slab = this.room(length);
    const buffer = this.slabs[slab] as Buffer;
    const offset = this.used[slab] as number;
    this.used[slab] = offset + length;
    this.live[slab] = (this.live[slab] as number) + length;
    this.slabOf[slot] = slab;
    this.offsetOf[slot] = offset;
    this.lengthOf[slot] = length;
    let placed = this.placed[slab] as Int32Array<ArrayBuffer>;
    const count = this.placedCount[slab] as number;
    if (count === placed.length) {
      placed = grownInt32(placed, placed.length * 2);
      this.placed[slab] = placed;
    }
    placed[count] = slot;
    this.placedCount[slab] = count + 1;
    return { slot, buffer, offset };
  }

  /** The slab `length` bytes go to: the current one, a new current one once it is full, or one of their own past a slab's size. */
  private room(length: number): number {
    if (length > SLAB_BYTES) return this.open(length);
    if (this.current < 0 || (this.used[this.current] as number) + length > SLAB_BYTES) {
      const full = this.current;
      this.current = this.open(SLAB_BYTES);
      if (full >= 0) this.tidy(full);
      // Emptying the full slab may have filled up to half of the new one: a record that no
      // longer fits gets a slab of its own.
      if ((this.used[this.current] as number) + length > SLAB_BYTES) return this.open(length);
    }
    return this.current;
  }

  private open(size: number): number {
    const slab = this.releasedSlabs.pop() ?? this.slabs.length;
    // Not zeroed: only bytes written are ever read back.
    this.slabs[slab] = Buffer.allocUnsafeSlow(size);
    this.used[slab] = 0;
    this.live[slab] = 0;
    this.placed[slab] = new Int32Array(64);
    this.placedCount[slab] = 0;
    this.held += size;
    return slab;
  }

  /** Releases a slab no longer written to once nothing in it is live, after moving its records out once under half is. */
  private tidy(slab: number): void {
    if (slab === this.current) return;
    const live = this.live[slab] as number;
    if (live >= EVACUATE_BELOW * (this.used[slab] as number)) return;
    if (live > 0) this.evacuate(slab);
    const buffer = this.slabs[slab] as Buffer;
    this.held -= buffer.length;
    this.slabs[slab] = undefined;
    this.placed[slab] = new Int32Array(0);
    this.releasedSlabs.push(slab);
  }

  /** Moves the live records of `slab` to the current slab; each keeps its slot. */
  private evacuate(slab: number): void {
    const buffer = this.slabs[slab] as Buffer;
    const placed = this.placed[slab] as Int32Array;
    const count = this.placedCount[slab] as number;
    for (let k = 0; k < count; k += 1) {
      const slot = placed[k] as number;
      // Moved or freed since it was placed here, or placed here twice (freed, then handed out again).
      if (this.slabOf[slot] !== slab) continue;
      const from = this.offsetOf[slot] as number;
      const length = this.lengthOf[slot] as number;
      this.live[slab] = (this.live[slab] as number) - length;
      const to = this.place(slot, length);
      buffer.copy(to.buffer, to.offset, from, from + length);
    }
  }
}
