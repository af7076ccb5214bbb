import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '@switchyard/contract';
import { RequestJournal } from './journal.js';

const entry = (id: string, at: string, operation_id = 'createPayment', status = 201): JournalEntry => ({
  id,
  at,
  method: 'POST',
  path: '/v1/payments',
  operation_id,
  status,
  duration_ms: 1,
  request_id: id,
  idempotency_key: null,
  replayed: false,
  fault: null,
  request_body: null,
  response_body: null,
});

describe('request journal', () => {
  it('keeps the last `size` entries per merchant, oldest first', () => {
    const journal = new RequestJournal(3);
    for (let i = 1; i <= 5; i += 1) journal.record('m', entry(`e${i}`, `2026-01-01T00:00:0${i}.000Z`));
    expect(journal.list('m', {}).map((e) => e.id)).toEqual(['e3', 'e4', 'e5']);
    expect(journal.list('other', {})).toEqual([]);
  });

  it('filters by operation id, status and time, and answers the most recent `limit`', () => {
    const journal = new RequestJournal(10);
    journal.record('m', entry('a', '2026-01-01T00:00:01.000Z', 'createPayment', 201));
    journal.record('m', entry('b', '2026-01-01T00:00:02.000Z', 'getPayment', 400));
    journal.record('m', entry('c', '2026-01-01T00:00:03.000Z', 'createPayment', 400));
    const ids = (q: Parameters<RequestJournal['list']>[1]) => journal.list('m', q).map((e) => e.id);
    expect(ids({ operation_id: 'createPayment' })).toEqual(['a', 'c']);
    expect(ids({ status: 400 })).toEqual(['b', 'c']);
    expect(ids({ since: '2026-01-01T00:00:02.000Z', until: '2026-01-01T00:00:03.000Z' })).toEqual(['b']);
    expect(ids({ limit: 2 })).toEqual(['b', 'c']);
  });

  it('keeps at most `totalEntries` entries in all, forgetting the journals of the merchants idle longest', () => {
    const journal = new RequestJournal(2, 3);
    journal.record('m1', entry('1', '2026-01-01T00:00:01.000Z'));
    journal.record('m2', entry('2', '2026-01-01T00:00:02.000Z'));
    journal.record('m1', entry('3', '2026-01-01T00:00:03.000Z'));
    journal.record('m3', entry('4', '2026-01-01T00:00:04.000Z'));
    expect(journal.list('m2', {})).toEqual([]);
    expect(journal.list('m1', {}).map((e) => e.id)).toEqual(['1', '3']);
    // A full ring that overwrites its oldest entry adds nothing to the total.
    journal.record('m1', entry('5', '2026-01-01T00:00:05.000Z'));
    expect(journal.list('m3', {}).map((e) => e.id)).toEqual(['4']);
    journal.clear('m1');
    expect(journal.list('m1', {})).toEqual([]);
    journal.record('m4', entry('6', '2026-01-01T00:00:06.000Z'));
    journal.record('m4', entry('7', '2026-01-01T00:00:07.000Z'));
    expect(journal.list('m3', {}).map((e) => e.id)).toEqual(['4']);
  });

  // docs/sandbox.md, "Request journal", Bounds: one merchant's flood fills its own ring, and the
  // journals it forgets to make room for that ring leave the others at least
  // totalEntries - 2 * size + 1 entries (whole journals go, so one eviction frees up to a ring
  // more than it needs); a full ring evicts nothing.
  it('never lets one merchant, however many requests and resets it makes, push the others below totalEntries - 2 * size + 1', () => {
    const others = fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 30 });
    const floods = fc.array(fc.oneof(fc.integer({ min: 1, max: 50 }), fc.constant('reset' as const)), { maxLength: 10 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 40 }), others, floods, (size, extra, lengths, actions) => {
        const totalEntries = size + extra;
        const journal = new RequestJournal(size, totalEntries);
        const all = { limit: 1000 };
        let n = 0;
        const record = (merchant: string) => journal.record(merchant, entry(`e${(n += 1)}`, '2026-01-01T00:00:00.000Z'));
        lengths.forEach((length, i) => {
          for (let k = 0; k < Math.min(length, size); k += 1) record(`m${i}`);
        });
        const journalsOf = () => lengths.map((_, i) => journal.list(`m${i}`, all).map((e) => e.id));
        const before = journalsOf();
        const floor = Math.min(before.flat().length, totalEntries - 2 * size + 1);
        for (const action of actions) {
          if (action === 'reset') journal.clear('flood');
          else for (let k = 0; k < action; k += 1) record('flood');
          expect(journal.list('flood', all).length).toBeLessThanOrEqual(size);
          const now = journalsOf();
          expect(now.flat().length).toBeGreaterThanOrEqual(floor);
          // A journal is kept whole or forgotten whole, never cut.
          now.forEach((ids, i) => expect(ids.length === 0 ? [] : before[i]).toEqual(ids));
        }
      }),
    );
  });

  it('costs the others, for one flood, only the journals idle longest that its ring needed room from; many merchants can forget any journal', () => {
    const journal = new RequestJournal(3, 9);
    journal.record('idle', entry('i1', '2026-01-01T00:00:01.000Z'));
    for (const m of ['a', 'b']) for (let k = 0; k < 3; k += 1) journal.record(m, entry(`${m}${k}`, '2026-01-01T00:00:02.000Z'));
    for (let k = 0; k < 1000; k += 1) journal.record('flood', entry(`f${k}`, '2026-01-01T00:00:03.000Z'));
    // 1 + 3 + 3 + 3 = 10 > 9: the flood's ring cost the journal idle longest, and nothing more.
    expect(journal.list('idle', {})).toEqual([]);
    expect(journal.list('a', {}).map((e) => e.id)).toEqual(['a0', 'a1', 'a2']);
    expect(journal.list('b', {}).map((e) => e.id)).toEqual(['b0', 'b1', 'b2']);
    expect(journal.list('flood', {}).map((e) => e.id)).toEqual(['f997', 'f998', 'f999']);
    // Many merchants can: three more journals of one entry each, and the next idle longest goes.
    for (const m of ['c', 'd', 'e']) journal.record(m, entry(m, '2026-01-01T00:00:04.000Z'));
    expect(journal.list('a', {})).toEqual([]);
  });

  it('keeps nothing at size 0', () => {
    const journal = new RequestJournal(0);
    journal.record('m', entry('a', '2026-01-01T00:00:01.000Z'));
    expect(journal.list('m', {})).toEqual([]);
  });
});
