import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeResponseErrors, parseCounts, parseTable, TABLE_END, TABLE_START } from './table.js';

const header = '| Example | Check | Kind | Item | Upstream rule broken | Today\'s answer | Why |\n|---|---|---|---|---|---|---|';
const wrap = (rows: string) => `${TABLE_START}\n\n${header}\n${rows}\n\n${TABLE_END}`;

describe('the exceptions table', () => {
  it('reads docs/fidelity.md (also where the upstream reference is absent)', () => {
    const markdown = readFileSync(new URL('../../../docs/fidelity.md', import.meta.url), 'utf8');
    expect(parseTable(markdown).length).toBeGreaterThan(0);
    expect(Object.keys(parseCounts(markdown))).toContain('accepted as published');
  });

  it('reads a row cell by cell, code spans unwrapped and an empty rule kept empty', () => {
    expect(parseTable(wrap('| `a.json#X` | status | open | 1 |  | `400 INVALID_REQUEST: checkout` | Refused. |'))).toEqual([
      { example: 'a.json#X', check: 'status', kind: 'open', item: '1', rule: '', answer: '400 INVALID_REQUEST: checkout', why: 'Refused.' },
    ]);
  });

  it('refuses a row of an unknown kind, a schema-broken row without its rule and a row without a reason', () => {
    expect(() => parseTable(wrap('| `a.json#X` | status | later | 1 |  | `400` | Why. |'))).toThrow(/kind/);
    expect(() => parseTable(wrap('| `a.json#X` | status | schema-broken | — |  | `400` | Why. |'))).toThrow(/rule/);
    expect(() => parseTable(wrap('| `a.json#X` | status | open | 1 |  | `400` |  |'))).toThrow(/why/);
  });

  it('records response errors as their count and the top-level fields they touch', () => {
    const errors = ['/transactions must be array', '/payment_method/token must be string', '/ must match a schema in anyOf', '/transactions/id must be string', "/ must have required property 'type'"];
    expect(describeResponseErrors(errors)).toBe('5: (root), payment_method, transactions, type');
  });
});
