import { describe, expect, it } from 'vitest';
import { createRenamer, propertyNames } from './renames.js';

const ours = propertyNames({ components: { schemas: { A: { properties: { service_connection_id: {}, account_id: {}, nested: { properties: { service_account_id: {} } } } } } } });
const renamer = createRenamer(ours);

describe('brand renames', () => {
  it('collects every property name of a document, at any depth', () => {
    expect([...ours].sort()).toEqual(['account_id', 'nested', 'service_account_id', 'service_connection_id']);
  });

  it('renames a field whose first word is replaced by service in ours, and nothing else', () => {
    expect(renamer.field('upstream_connection_id')).toBe('service_connection_id');
    expect(renamer.field('upstream_account_id')).toBe('service_account_id');
    expect(renamer.field('account_id')).toBe('account_id');
    expect(renamer.field('merchant_reference')).toBe('merchant_reference');
    expect(renamer.field('id')).toBe('id');
  });

  it('renames the keys of an example at any depth', () => {
    expect(renamer.value({ upstream_connection_id: 'c', list: [{ upstream_account_id: 'a' }], text: 'upstream_connection_id' })).toEqual({
      service_connection_id: 'c',
      list: [{ service_account_id: 'a' }],
      text: 'upstream_connection_id',
    });
  });

  it("renames a schema's properties and required names, not its examples", () => {
    const schema = { type: 'object', required: ['upstream_connection_id'], properties: { upstream_connection_id: { type: 'string' } }, example: { upstream_connection_id: 'c' } };
    expect(renamer.schema(schema)).toEqual({
      type: 'object',
      required: ['service_connection_id'],
      properties: { service_connection_id: { type: 'string' } },
      example: { upstream_connection_id: 'c' },
    });
  });
});
