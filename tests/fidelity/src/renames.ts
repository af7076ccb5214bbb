/**
 * The brand renames of spec §1 convention 5: a field whose first word is the upstream brand is ours
 * with `service` in its place (`..._connection_id` becomes `service_connection_id`), the rule
 * `serviceNameFor` of @switchyard/tooling/upstream shares with the contract's upstream comparison,
 * accepted only for the field names our contract declares.
 */
import { serviceNameFor } from '@switchyard/tooling/upstream';
import type { Json } from './upstream.js';

/** Every property name declared anywhere in an OpenAPI document. */
export function propertyNames(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) propertyNames(item, out);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === 'properties' && value && typeof value === 'object') for (const name of Object.keys(value)) out.add(name);
      propertyNames(value, out);
    }
  }
  return out;
}

export interface Renamer {
  /** Our name for an upstream field name (itself when not brand-named). */
  field(name: string): string;
  /** A JSON value with every object key renamed, at any depth. */
  value(value: unknown): unknown;
  /** A JSON schema with every declared property and required name renamed, at any depth. */
  schema(schema: unknown): unknown;
}

export function createRenamer(ours: Set<string>): Renamer {
  const field = (name: string): string => {
    if (ours.has(name)) return name;
    const candidate = serviceNameFor(name);
    return candidate && ours.has(candidate) ? candidate : name;
  };
  const value = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(value);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node as Json).map(([key, inner]) => [field(key), value(inner)]));
    return node;
  };
  const schema = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(schema);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node as Json).map(([key, inner]) => {
        if (key === 'properties' && inner && typeof inner === 'object') {
          return [key, Object.fromEntries(Object.entries(inner as Json).map(([name, sub]) => [field(name), schema(sub)]))];
        }
        if (key === 'required' && Array.isArray(inner)) return [key, inner.map((name) => (typeof name === 'string' ? field(name) : name))];
        // Examples are documentation, not rules: left as published.
        if (key === 'example' || key === 'examples') return [key, inner];
        return [key, schema(inner)];
      }),
    );
  };
  return { field, value, schema };
}
