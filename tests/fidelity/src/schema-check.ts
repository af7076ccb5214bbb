/**
 * Validates a JSON value against an upstream schema with ajv (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1), as a validator of the document's own version reads it: `nullable` allows `null`
 * in an OpenAPI 3.0 document only. OpenAPI 3.1 dropped the keyword (a nullable field is typed
 * `[T, "null"]` there), so in a 3.1 document it allows nothing, and `null` where such a document
 * types a string is a divergence, as an outside tool reports it. Errors are reduced to a stable,
 * id-free form (`/transactions must be array`) so a recorded divergence can be compared exactly.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Json } from './upstream.js';

// ajv-formats is CommonJS; its plugin is also its own `default` property, which is what the types see.
const addFormats = addFormatsModule.default;

export interface SchemaChecker {
  /** The sorted, de-duplicated errors of `value` against `schema` (upstream `#/components` refs resolve in `doc`). */
  errors(doc: Json, schema: unknown, value: unknown): string[];
}

/** The schema without OpenAPI 3.0's `nullable`, which ajv would otherwise honour in any document. */
export function withoutNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNullable);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Json)
      .filter(([key]) => key !== 'nullable')
      .map(([key, value]) => [key, key === 'example' || key === 'examples' ? value : withoutNullable(value)]),
  );
}

const isOpenApi31 = (doc: Json) => typeof doc.openapi === 'string' && doc.openapi.startsWith('3.1');

function describe(error: ErrorObject): string {
  // Array positions say nothing about the rule broken; `[]` keeps one line per rule.
  const at = error.instancePath.replace(/\/\d+(?=\/|$)/g, '/[]') || '/';
  const extra = error.keyword === 'additionalProperties' ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})` : '';
  return `${at} ${error.message ?? error.keyword}${extra}`;
}

export function createSchemaChecker(): SchemaChecker {
  // strict off: upstream's schemas carry OpenAPI words (`example`, `nullable`, formats such as int32).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
  addFormats(ajv);
  for (const name of ['int32', 'int64', 'float', 'double']) ajv.addFormat(name, true);
  const compiled = new Map<unknown, ValidateFunction>();
  return {
    errors(doc, schema, value) {
      if (schema === undefined) return [];
      let validate = compiled.get(schema);
      if (!validate) {
        const whole = { ...(schema as Json), components: doc.components };
        validate = ajv.compile((isOpenApi31(doc) ? withoutNullable(whole) : whole) as Json);
        compiled.set(schema, validate);
      }
      validate(value);
      return [...new Set((validate.errors ?? []).map(describe))].sort();
    },
  };
}
