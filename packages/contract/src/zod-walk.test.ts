import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { unwrapSchema, wrapperOf } from './zod-walk.js';

describe('wrapperOf', () => {
  it('names each wrapper and what it wraps', () => {
    const core = z.string();
    expect(wrapperOf(core.optional())).toMatchObject({ kind: 'optional', inner: core });
    expect(wrapperOf(core.nullable())).toMatchObject({ kind: 'nullable', inner: core });
    expect(wrapperOf(core.refine((s) => s.length > 0))).toMatchObject({ kind: 'effects', effect: 'refinement', inner: core });
    expect(wrapperOf(core.transform((s) => s.length))).toMatchObject({ kind: 'effects', effect: 'transform', inner: core });
    expect(wrapperOf(core.readonly())).toMatchObject({ kind: 'transparent', inner: core });
    expect(wrapperOf(core.brand('Name'))).toMatchObject({ kind: 'transparent', inner: core });
    expect(wrapperOf(z.lazy(() => core))).toMatchObject({ kind: 'transparent', inner: core });
  });

  it('keeps the default value and both sides of a pipeline', () => {
    const withDefault = wrapperOf(z.number().default(1));
    expect(withDefault?.kind === 'default' && withDefault.defaultValue()).toBe(1);
    const out = z.string().uuid();
    expect(wrapperOf(z.string().pipe(out))).toMatchObject({ kind: 'pipeline', out });
  });

  it('returns undefined for a core type, and for what is no zod schema (a route without body)', () => {
    for (const core of [z.string(), z.object({}), z.array(z.number()), z.union([z.string(), z.number()]), z.enum(['A'])]) {
      expect(wrapperOf(core)).toBeUndefined();
    }
    const noBody = Symbol('no body') as unknown as z.ZodTypeAny;
    expect(unwrapSchema(noBody)).toMatchObject({ core: noBody, wrappers: [] });
  });
});

describe('unwrapSchema', () => {
  it('peels every wrapper down to the core, outermost first', () => {
    const core = z.object({ a: z.string() });
    const { core: found, wrappers } = unwrapSchema(core.refine(() => true).nullable().optional());
    expect(found).toBe(core);
    expect(wrappers.map((w) => w.kind)).toEqual(['optional', 'nullable', 'effects']);
  });

  it('says whether a value may be left out or be null', () => {
    expect(unwrapSchema(z.string())).toMatchObject({ optional: false, nullable: false });
    expect(unwrapSchema(z.string().optional())).toMatchObject({ optional: true, nullable: false });
    expect(unwrapSchema(z.string().default('x'))).toMatchObject({ optional: true, nullable: false });
    expect(unwrapSchema(z.string().nullable())).toMatchObject({ optional: false, nullable: true });
  });
});
