import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { nextRandom } from '../domain/seeded-random.js';
import { text, textOrNull } from './postgres-sql.js';

/** Characters that matter to a literal, and some that do not, for strings made at random. */
const ALPHABET = ["'", '\\', '"', 'a', 'Z', '0', ' ', '\n', 'ñ', '€', '😀', '\u2028', ';', '-', 'E'];

describe('SQL literals', () => {
  it('writes each string exactly as node-postgres escapeLiteral does', () => {
    const fixed = ['', 'plain', "O'Brien", "''", '\\', '\\\\', "a'b\\c'", ` E'x'`, JSON.stringify({ note: "it's a \\ \"quote\"", emoji: '😀' })];
    let state = 17;
    const draw = (n: number) => {
      const r = nextRandom(state);
      state = r.state;
      return Math.floor(r.value * n);
    };
    const random = Array.from({ length: 500 }, () => Array.from({ length: draw(25) }, () => ALPHABET[draw(ALPHABET.length)]).join(''));
    for (const value of [...fixed, ...random]) expect(text(value)).toBe(pg.escapeLiteral(value));
  });

  it('marks a literal holding a backslash as an escape string, and writes NULL for no value', () => {
    expect(text('a\\b')).toBe(" E'a\\\\b'");
    expect(text("it's")).toBe("'it''s'");
    expect(textOrNull(undefined)).toBe('NULL');
    expect(textOrNull(null)).toBe('NULL');
  });
});
