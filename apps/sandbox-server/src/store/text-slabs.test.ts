import { describe, expect, it } from 'vitest';
import { nextRandom } from '../domain/seeded-random.js';
import { TextSlabs } from './text-slabs.js';

const SLAB = 4 * 1024 * 1024;
const bytes = (text: string) => Buffer.from(text);
const read = (slabs: TextSlabs, slot: number) => slabs.view(slot).toString();

describe('text slabs', () => {
  it('reads back each record as put, its prefix first, text as UTF-8, and hands a freed slot out again', () => {
    const slabs = new TextSlabs();
    const a = slabs.put(bytes('{"a":1}'));
    const b = slabs.put(bytes('payload'), Uint8Array.of(1, 7));
    expect(read(slabs, a)).toBe('{"a":1}');
    expect([...slabs.view(b)]).toEqual([1, 7, ...bytes('payload')]);
    expect(slabs.heldBytes).toBe(SLAB);
    slabs.free(a);
    const c = slabs.putText('ñandú €');
    expect(c).toBe(a);
    expect(read(slabs, c)).toBe('ñandú €');
    expect([...slabs.view(b)]).toEqual([1, 7, ...bytes('payload')]);
  });

  it('moves the live records out of a slab under half live and releases it, each record keeping its slot', () => {
    const slabs = new TextSlabs();
    const record = (n: number) => `${String(n).padStart(8, '0')}${'x'.repeat(1016)}`;
    // Two and a half slabs of 1 KB records.
    const slots = Array.from({ length: (SLAB / 1024) * 2.5 }, (_, n) => slabs.put(bytes(record(n))));
    expect(slabs.heldBytes).toBe(3 * SLAB);
    // Three in four of the first two slabs' records freed: both fall under half live.
    const kept = new Set(slots.filter((_, n) => n % 4 === 0 || n >= (SLAB / 1024) * 2));
    for (const slot of slots) if (!kept.has(slot)) slabs.free(slot);
    const live = kept.size * 1024;
    // Their live records moved into the current slab, and the first two slabs were released.
    expect(slabs.heldBytes).toBeLessThan(3 * SLAB);
    expect(slabs.heldBytes).toBeLessThanOrEqual(2 * live + SLAB);
    const wrong = slots.filter((slot, n) => kept.has(slot) && read(slabs, slot) !== record(n));
    expect(wrong).toEqual([]);
  });

  it('gives a record larger than a slab a slab of its own, released with it', () => {
    const slabs = new TextSlabs();
    const small = slabs.put(bytes('{}'));
    const large = slabs.put(Buffer.alloc(SLAB + 10, 'y'));
    expect(slabs.heldBytes).toBe(2 * SLAB + 10);
    expect(slabs.view(large).length).toBe(SLAB + 10);
    slabs.free(large);
    expect(slabs.heldBytes).toBe(SLAB);
    expect(read(slabs, small)).toBe('{}');
  });

  it('gives a record a slab of its own when emptying the full slab left too little room in the new one', () => {
    for (const how of ['text', 'bytes'] as const) {
      const slabs = new TextSlabs();
      const small = Array.from({ length: SLAB / 1024 }, () => slabs.putText('b'.repeat(1024)));
      // Just under half of the full slab stays live: it is emptied into the next slab when it opens.
      for (const slot of small.slice(0, SLAB / 2048 + 2)) slabs.free(slot);
      const big = 'c'.repeat(3 * 1024 * 1024);
      const slot = how === 'text' ? slabs.putText(big) : slabs.put(bytes(big));
      expect(read(slabs, slot) === big, how).toBe(true);
      const wrong = small.slice(SLAB / 2048 + 2).filter((s) => read(slabs, s) !== 'b'.repeat(1024));
      expect(wrong, how).toEqual([]);
    }
  });

  it('refuses to free a slot twice', () => {
    const slabs = new TextSlabs();
    const slot = slabs.putText('{}');
    slabs.free(slot);
    expect(() => slabs.free(slot)).toThrow(`slot ${slot} is not held`);
  });

  it('keeps every record as put through random puts and frees, within about twice the live bytes', () => {
    let state = 7;
    const random = () => {
      const next = nextRandom(state);
      state = next.state;
      return next.value;
    };
    const slabs = new TextSlabs();
    const model = new Map<number, string>();
    const held: number[] = [];
    let live = 0;
    for (let step = 0; step < 60_000; step += 1) {
      if (held.length > 0 && random() < 0.45) {
        const k = Math.floor(random() * held.length);
        const slot = held[k] as number;
        held[k] = held[held.length - 1] as number;
        held.pop();
        live -= Buffer.byteLength(model.get(slot) as string);
        model.delete(slot);
        slabs.free(slot);
      } else {
        // Now and then a record of up to 2.5 MB, so that emptying a slab may open the next one.
        const size = random() < 0.002 ? Math.floor(random() * 2_500_000) : Math.floor(random() * 3000);
        const text = `${step}:é${'z'.repeat(size)}`;
        const slot = step % 2 === 0 ? slabs.putText(text) : slabs.put(bytes(text));
        if (model.has(slot)) throw new Error(`slot ${slot} handed out while held`);
        model.set(slot, text);
        held.push(slot);
        live += Buffer.byteLength(text);
      }
      if (step % 5000 === 0) expect([...model].filter(([slot, text]) => read(slabs, slot) !== text)).toEqual([]);
    }
    expect([...model].filter(([slot, text]) => read(slabs, slot) !== text)).toEqual([]);
    // Each slab no longer written to is at least half live; the current one may be empty.
    expect(slabs.heldBytes).toBeLessThanOrEqual(2 * live + SLAB);
  });
});
