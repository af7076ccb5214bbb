import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { SchemaWriter, schemaNames, sharedVocabulary } from './json-schema.js';

const Left = z.object({ kind: z.literal('left'), id: z.string() });
const Right = z.object({ kind: z.literal('right'), id: z.string() });
const LookAlike = z.object({ kind: z.literal('left'), id: z.string() });
const WithDefault = z.object({ count: z.number().int().default(1) });

describe('SchemaWriter', () => {
  it('names a schema by identity: a look-alike keeps its own name, an unnamed copy is written out', () => {
    const writer = new SchemaWriter(schemaNames({ Left, LookAlike }));
    expect(writer.write(Left, 'output')).toEqual({ $ref: '#/components/schemas/Left' });
    expect(writer.write(LookAlike, 'output')).toEqual({ $ref: '#/components/schemas/LookAlike' });
    expect(writer.write(Left.extend({}), 'output')).toMatchObject({ type: 'object', required: ['kind', 'id'] });
  });

  it('makes a component only when something refers to it', () => {
    const writer = new SchemaWriter(schemaNames({ Left, Right }));
    writer.write(z.object({ left: Left }), 'output');
    expect([...writer.components.keys()]).toEqual(['Left']);
  });

  it('writes null as a type beside a plain type, and as an anyOf member beside a $ref', () => {
    const writer = new SchemaWriter(schemaNames({ Left }));
    expect(writer.write(z.string().max(3).nullable(), 'output')).toEqual({ type: ['string', 'null'], maxLength: 3 });
    expect(writer.write(z.enum(['A', 'B']).nullable(), 'output')).toEqual({ type: ['string', 'null'], enum: ['A', 'B', null] });
    expect(writer.write(Left.nullable(), 'output')).toEqual({ anyOf: [{ $ref: '#/components/schemas/Left' }, { type: 'null' }] });
  });

  it('keeps an optional field out of required, and a nullable one in it', () => {
    const writer = new SchemaWriter(new Map());
    expect(writer.write(z.object({ a: z.string().optional(), b: z.string().nullable() }), 'output')).toMatchObject({ required: ['b'] });
  });

  it('gives a discriminator only where every member is a $ref', () => {
    const named = new SchemaWriter(schemaNames({ Left, Right }));
    expect(named.write(z.discriminatedUnion('kind', [Left, Right]), 'output')).toEqual({
      oneOf: [{ $ref: '#/components/schemas/Left' }, { $ref: '#/components/schemas/Right' }],
      discriminator: { propertyName: 'kind', mapping: { left: '#/components/schemas/Left', right: '#/components/schemas/Right' } },
    });
    const inline = new SchemaWriter(new Map());
    expect(inline.write(z.discriminatedUnion('kind', [Left, Right]), 'output')).not.toHaveProperty('discriminator');
  });

  it('writes a zod union, which takes its first member that parses, as anyOf', () => {
    expect(new SchemaWriter(new Map()).write(z.union([z.string(), z.number()]), 'output')).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
  });

  it('names the request side <Name>Input only where the schema is written both ways and reads differently', () => {
    const bothWays = new SchemaWriter(schemaNames({ WithDefault }));
    expect(bothWays.write(WithDefault, 'input')).toEqual({ $ref: '#/components/schemas/WithDefaultInput' });
    expect(bothWays.write(WithDefault, 'output')).toEqual({ $ref: '#/components/schemas/WithDefault' });
    expect(bothWays.components.get('WithDefaultInput')).toEqual({ type: 'object', properties: { count: { type: 'integer', default: 1 } } });
    expect(bothWays.components.get('WithDefault')).toMatchObject({ required: ['count'] });
    expect([...(bothWays.uses.get('WithDefault') ?? [])]).toEqual(['input', 'output']);

    const requestOnly = new SchemaWriter(schemaNames({ WithDefault }), () => false);
    expect(requestOnly.write(WithDefault, 'input')).toEqual({ $ref: '#/components/schemas/WithDefault' });
  });

  it('refuses a zod type it cannot write, rather than writing a schema that accepts anything', () => {
    expect(() => new SchemaWriter(new Map()).write(z.bigint(), 'output')).toThrow(/ZodBigInt/);
  });
});

describe('sharedVocabulary', () => {
  it('names objects, lists and enums, and leaves plain strings to be written where they are used', () => {
    const names = sharedVocabulary({ Uuid: z.string().uuid(), Kinds: z.enum(['a']), Thing: z.object({}), helper: () => 1 });
    expect([...names.values()].sort()).toEqual(['Kinds', 'Thing']);
  });
});
