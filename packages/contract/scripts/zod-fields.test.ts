import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { Amount, Currency } from '../src/index.js';
import { fieldRows, LONG_ENUM, typeName, UNREAD_CHECK } from './zod-fields.js';

const row = (schema: z.ZodTypeAny, path: string) => fieldRows(schema).find((r) => r.path === path);

describe('fieldRows', () => {
  it('lists nested fields with required-ness, nullability and limits', () => {
    const schema = z.object({
      name: z.string().min(3).max(255),
      tags: z.array(z.object({ key: z.string().length(2) })).max(50).optional(),
      note: z.string().regex(/^a|b$/).nullable(),
      count: z.number().int().min(1).max(9).default(1),
    });
    expect(fieldRows(schema).map((r) => r.path)).toEqual(['', 'name', 'tags', 'tags[].key', 'note', 'count']);
    expect(row(schema, 'name')).toEqual({ path: 'name', type: 'string', required: true, nullable: false, limits: ['3–255 chars'] });
    expect(row(schema, 'tags')).toMatchObject({ type: 'array of object', required: false, limits: ['at most 50 items'] });
    expect(row(schema, 'tags[].key')).toMatchObject({ required: true, limits: ['exactly 2 chars'] });
    expect(row(schema, 'note')).toMatchObject({ nullable: true, limits: ['pattern `^a|b$`'] });
    expect(row(schema, 'count')).toMatchObject({ type: 'integer', required: false, limits: ['≥ 1', '≤ 9', 'default 1'] });
  });

  it('reads the message of a custom check by making it fail', () => {
    expect(row(Amount, 'value')?.limits).toEqual(['≥ 0.0001', '≤ 9999999999', 'must be a multiple of 0.0001 (at most 4 decimals)']);
  });

  it('documents a check that describes itself by its description, as the currency codes', () => {
    expect(row(Amount, 'currency')?.limits).toEqual(['pattern `^[A-Z]{3}$`', Currency.description]);
  });

  it('marks a custom check no probe triggers, so the reference test can refuse it', () => {
    const schema = z.object({ odd: z.number().refine((n) => n !== 42, 'must not be 42') });
    expect(row(schema, 'odd')?.limits).toEqual([UNREAD_CHECK]);
  });

  it('notes rules that tie the fields of an object together', () => {
    const schema = z.object({ a: z.string().optional(), b: z.string().optional() }).refine((v) => v.a !== undefined || v.b !== undefined);
    expect(row(schema, '')?.limits).toEqual(['cross-field rules (a violation names the field)']);
  });

  it('applies both sides of a pipe', () => {
    expect(row(z.object({ at: z.string().datetime().pipe(z.string().max(27)) }), 'at')?.limits).toEqual(['ISO 8601 date-time (Z)', 'at most 27 chars']);
  });

  it('tags the fields of each variant of a discriminated union', () => {
    const schema = z.discriminatedUnion('type', [z.object({ type: z.literal('A'), a: z.string() }), z.object({ type: z.literal('B'), b: z.number() })]);
    expect(fieldRows(schema).slice(1).map((r) => [r.path, r.limits[0]])).toEqual([
      ['type', 'when type is "A"'],
      ['a', 'when type is "A"'],
      ['type', 'when type is "B"'],
      ['b', 'when type is "B"'],
    ]);
    expect(typeName(schema)).toBe('object');
  });

  it('names a long enumeration when asked to, and writes a short one out', () => {
    const long = z.enum(Array.from({ length: LONG_ENUM + 1 }, (_, i) => `V${i}`) as [string, ...string[]]);
    const schema = z.object({ long, short: z.enum(['X', 'Y']) });
    const rows = fieldRows(schema, { enumName: () => 'Long' });
    expect(rows.find((r) => r.path === 'long')?.limits).toEqual([`one of the ${LONG_ENUM + 1} values of Long`]);
    expect(rows.find((r) => r.path === 'short')?.limits).toEqual(['one of `X`, `Y`']);
  });
});
