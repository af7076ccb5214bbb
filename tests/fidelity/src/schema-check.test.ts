import { describe, expect, it } from 'vitest';
import { createSchemaChecker, withoutNullable } from './schema-check.js';

describe('createSchemaChecker', () => {
  const schema = { type: 'object', properties: { name: { type: 'string', nullable: true } } };

  it('lets nullable allow null in an OpenAPI 3.0 document', () => {
    expect(createSchemaChecker().errors({ openapi: '3.0.0' }, schema, { name: null })).toEqual([]);
  });

  it('reads nullable as nothing in an OpenAPI 3.1 document, as a 3.1 validator does', () => {
    expect(createSchemaChecker().errors({ openapi: '3.1.0' }, schema, { name: null })).toEqual(['/name must be string']);
  });

  it("allows null where a 3.1 document types it so", () => {
    const typed = { type: 'object', properties: { name: { type: ['string', 'null'] } } };
    expect(createSchemaChecker().errors({ openapi: '3.1.0' }, typed, { name: null })).toEqual([]);
  });
});

describe('withoutNullable', () => {
  it('drops the keyword at any depth and leaves examples as published', () => {
    expect(withoutNullable({ nullable: true, items: [{ nullable: false, type: 'string' }], example: { nullable: true } })).toEqual({
      items: [{ type: 'string' }],
      example: { nullable: true },
    });
  });
});
