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

  it('keeps nothing at size 0', () => {
    const journal = new RequestJournal(0);
    journal.record('m', entry('a', '2026-01-01T00:00:01.000Z'));
    expect(journal.list('m', {})).toEqual([]);
  });
});
