import { describe, expect, it } from 'vitest';
import { RecordCompactor, type StoredText } from './record-compactor.js';

const payment = (n: number) =>
  JSON.stringify({ id: `pay-${n}`, status: 'SUCCEEDED', amount: { currency: 'ARS', value: n }, description: 'Order ñandú €', customer: { first_name: 'Ada', last_name: 'Lovelace', email: `ada${n}@example.com` }, metadata: [], history: [] });

describe('the record compactor', () => {
  it('compresses long records with their kind\'s dictionary and reads them back as written', () => {
    const compactor = new RecordCompactor('between-requests');
    const records = new Map<string, StoredText>();
    for (let n = 0; n < 50; n += 1) {
      records.set(`p${n}`, payment(n));
      compactor.written('payment', records, `p${n}`);
    }
    records.set('short', '{"a":1}');
    compactor.written('payment', records, 'short');
    expect(compactor.queued).toBe(51);
    compactor.flush();
    expect(compactor.queued).toBe(0);
    for (let n = 0; n < 50; n += 1) {
      const stored = records.get(`p${n}`) as StoredText;
      // Out of the heap: the table keeps the slot of its bytes.
      expect(typeof stored).toBe('number');
      expect(compactor.text(stored)).toBe(payment(n));
      // The first of the kind is its dictionary, so every later one is a fraction of its text.
      if (n > 0) expect(compactor.size(stored)).toBeLessThan(payment(n).length / 3);
    }
    // Too short to gain from compression: out of the heap as it is.
    const short = records.get('short') as StoredText;
    expect(typeof short).toBe('number');
    expect(compactor.size(short)).toBe(7);
    expect(compactor.text(short)).toBe('{"a":1}');
  });

  it('leaves a record deleted or rewritten before its turn as it then is, and compacts the rewrite once', () => {
    const compactor = new RecordCompactor('between-requests');
    const records = new Map<string, StoredText>();
    records.set('a', payment(1));
    compactor.written('payment', records, 'a');
    records.set('b', payment(2));
    compactor.written('payment', records, 'b');
    records.delete('a');
    records.set('b', payment(3));
    compactor.written('payment', records, 'b');
    compactor.flush();
    expect(records.has('a')).toBe(false);
    expect(compactor.text(records.get('b') as StoredText)).toBe(payment(3));
    compactor.stop();
  });

  it('reads back records whose compressed form, and whose text, take several of zlib\'s output buffers', () => {
    const compactor = new RecordCompactor('at-commit');
    const records = new Map<string, StoredText>();
    // A description of pseudo-random words compresses poorly: tens of kilobytes of text, well
    // over 4 KB compressed, so both directions fill more than one buffer.
    let seed = 7;
    const word = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed.toString(36));
    const [first, second] = [0, 1].map((n) => JSON.stringify({ id: `pay-${n}`, description: Array.from({ length: 6000 }, word).join(' ') })) as [string, string];
    records.set('dictionary', first);
    compactor.written('payment', records, 'dictionary');
    records.set('long', second);
    compactor.written('payment', records, 'long');
    const stored = records.get('long') as StoredText;
    expect(typeof stored).toBe('number');
    expect(second.length).toBeGreaterThan(40_000);
    // Compressed (shorter than its text), and still over two buffers long.
    expect(compactor.size(stored)).toBeLessThan(second.length);
    expect(compactor.size(stored)).toBeGreaterThan(4096 * 2);
    expect(compactor.text(stored)).toBe(second);
    expect(compactor.text(records.get('dictionary') as StoredText)).toBe(first);
  });

  it('reads back records of every length up to its window, in any script, one after another', () => {
    const compactor = new RecordCompactor('at-commit');
    const records = new Map<string, StoredText>();
    let seed = 11;
    const word = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), `${seed.toString(36)}é日本`);
    // Longest first, so a shorter record follows a longer one through the same UTF-8 buffer.
    const texts = [1000, 400, 40, 3, 900, 20].map((words, n) => JSON.stringify({ id: `cus-${n}`, description: Array.from({ length: words }, word).join(' ') }));
    texts.forEach((text, n) => {
      records.set(`r${n}`, text);
      compactor.written('customer', records, `r${n}`);
    });
    expect(Buffer.byteLength(texts[0] as string)).toBeLessThan(16 * 1024);
    // Every record long enough to be compressed was.
    for (const n of [0, 1, 4]) expect(compactor.size(records.get(`r${n}`) as StoredText)).toBeLessThan(Buffer.byteLength(texts[n] as string) / 2);
    texts.forEach((text, n) => expect(compactor.text(records.get(`r${n}`) as StoredText)).toBe(text));
  });

  it('keeps records as written when off', () => {
    const compactor = new RecordCompactor('off');
    const records = new Map([['a', payment(1)]]);
    compactor.written('payment', records, 'a');
    compactor.flush();
    expect(records.get('a')).toBe(payment(1));
  });
});

describe('the record compactor\'s dictionaries', () => {
  it('takes a record of another shape as its kind\'s dictionary when the first one fits it poorly, and still reads the older ones', () => {
    const compactor = new RecordCompactor('between-requests');
    const records = new Map<string, StoredText>();
    const other = (n: number) => JSON.stringify({ kind: 'other shape', n, items: Array.from({ length: 12 }, (_, i) => ({ sku: `sku-${i}`, quantity: i, unit_price: { currency: 'BRL', value: i * 3.5 } })) });
    const add = (id: string, text: string) => {
      records.set(id, text);
      compactor.written('payment', records, id);
    };
    add('first', payment(0));
    add('o1', other(1));
    add('o2', other(2));
    add('p1', payment(1));
    compactor.flush();
    // o2 compresses against o1 (its shape's dictionary), so it is a fraction of its text.
    expect(compactor.size(records.get('o2') as StoredText)).toBeLessThan(other(2).length / 4);
    for (const [id, text] of [['first', payment(0)], ['o1', other(1)], ['o2', other(2)], ['p1', payment(1)]] as const) expect(compactor.text(records.get(id) as StoredText)).toBe(text);
  });
});
