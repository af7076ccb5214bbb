/**
 * zod schemas as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), with every schema the contract
 * exports written once under its export name in `components.schemas` and referred to by `$ref`
 * wherever it is used. A schema is found by identity (the very object the contract exports), never
 * by reading alike, so a new schema of the same shape can never take over a name.
 *
 * A component is made the first time something refers to it, so the document holds no unused one.
 * A schema may read differently as a request (`z.input`: a default makes a field optional) and as
 * an answer (`z.output`): where the two differ and both are used, the request side is named
 * `<Name>Input`.
 */
import { z } from 'zod';
import { unwrapSchema } from '../src/zod-walk.js';

export type JsonSchema = { [key: string]: unknown };
export type Direction = 'input' | 'output';

const REF_PREFIX = '#/components/schemas/';

/** Every zod schema among `exports`, by identity, named after its export (the first name in order, where one schema has several). */
export function schemaNames(exports: Record<string, unknown>): Map<z.ZodTypeAny, string> {
  const names = new Map<z.ZodTypeAny, string>();
  for (const name of Object.keys(exports).sort()) {
    const value = exports[name];
    if (value instanceof z.ZodType && !names.has(value)) names.set(value, name);
  }
  return names;
}

/**
 * The schemas of a module of shared vocabulary worth a name: objects, lists, records, enums and
 * unions. A plain string or number (`Uuid`, `DateTime`) reads better written where it is used.
 */
export function sharedVocabulary(exports: Record<string, unknown>): Map<z.ZodTypeAny, string> {
  const worth = new Set(['ZodObject', 'ZodArray', 'ZodRecord', 'ZodEnum', 'ZodUnion', 'ZodDiscriminatedUnion']);
  return new Map([...schemaNames(exports)].filter(([schema]) => worth.has(defOf(unwrapSchema(schema).core).typeName)));
}

interface Def {
  typeName: string;
  [key: string]: unknown;
}

const defOf = (schema: z.ZodTypeAny) => schema._def as Def;

/** Writes zod schemas as JSON Schema, collecting the named ones as components. */
export class SchemaWriter {
  /** Component name → schema, in the order they were first referred to. */
  readonly components = new Map<string, JsonSchema>();
  /** Each named schema's uses, by name: the ways (request, answer) it was written. */
  readonly uses = new Map<string, Set<Direction>>();
  private readonly pending = new Set<string>();

  /**
   * `usedBothWays` tells whether a named schema is written both as a request and as an answer in
   * the whole output (a first pass's `uses` knows); only then does a request side that reads
   * differently need a name of its own. Unknown, it is assumed.
   */
  constructor(
    private readonly names: ReadonlyMap<z.ZodTypeAny, string>,
    private readonly usedBothWays: (name: string) => boolean = () => true,
  ) {}

  /** `schema` as JSON Schema for `direction`: a `$ref` where it is a named export. */
  write(schema: z.ZodTypeAny, direction: Direction): JsonSchema {
    const name = this.names.get(schema);
    return name === undefined ? this.inline(schema, direction) : { $ref: `${REF_PREFIX}${this.component(schema, name, direction)}` };
  }

  /** The components, sorted by name, so a change of order in the contract does not move them. */
  sortedComponents(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.components].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The name of the component holding `schema` as read in `direction`, made on first use. */
  private component(schema: z.ZodTypeAny, name: string, direction: Direction): string {
    this.uses.set(name, (this.uses.get(name) ?? new Set()).add(direction));
    const component = direction === 'input' && this.usedBothWays(name) && readsDifferently(schema) ? `${name}Input` : name;
    if (!this.components.has(component) && !this.pending.has(component)) {
      // A recursive schema refers to itself while being written: the reference is all it needs.
      this.pending.add(component);
      const written = this.inline(schema, direction);
      this.pending.delete(component);
      this.components.set(component, written);
    }
    return component;
  }

  private inline(schema: z.ZodTypeAny, direction: Direction): JsonSchema {
    const own = this.core(schema, direction);
    const description = schema.description;
    return description !== undefined && own.description === undefined && !('$ref' in own) ? { ...own, description } : own;
  }

  private core(schema: z.ZodTypeAny, direction: Direction): JsonSchema {
    const def = defOf(schema);
    switch (def.typeName) {
      case 'ZodString':
        return stringSchema(def.checks as { kind: string; [key: string]: unknown }[]);
      case 'ZodNumber':
        return numberSchema(def.checks as { kind: string; value?: number; inclusive?: boolean }[]);
      case 'ZodBoolean':
        return { type: 'boolean' };
      case 'ZodEnum':
        return { type: 'string', enum: [...(def.values as string[])] };
      case 'ZodLiteral': {
        const value = def.value;
        return value === null ? { type: 'null' } : { type: typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value, const: value };
      }
      case 'ZodNever':
        return { not: {} };
      case 'ZodUnknown':
      case 'ZodAny':
        return {};
      case 'ZodNull':
        return { type: 'null' };
      case 'ZodObject':
        return this.object(schema as z.AnyZodObject, direction);
      case 'ZodArray': {
        const out: JsonSchema = { type: 'array', items: this.write(def.type as z.ZodTypeAny, direction) };
        const bound = (key: string) => (def[key] as { value: number } | null)?.value;
        const exact = bound('exactLength');
        if (exact !== undefined) Object.assign(out, { minItems: exact, maxItems: exact });
        if (bound('minLength') !== undefined) out.minItems = bound('minLength');
        if (bound('maxLength') !== undefined) out.maxItems = bound('maxLength');
        return out;
      }
      case 'ZodRecord': {
        const keys = this.write(def.keyType as z.ZodTypeAny, direction);
        const out: JsonSchema = { type: 'object', additionalProperties: this.write(def.valueType as z.ZodTypeAny, direction) };
        const { type: _string, ...keyRules } = keys;
        if (Object.keys(keyRules).length > 0) out.propertyNames = keyRules;
        return out;
      }
      case 'ZodUnion':
        // zod takes the first member that parses: members may overlap, so `anyOf`, not `oneOf`.
        return this.union((def.options as z.ZodTypeAny[]).map((o) => this.write(o, direction)), 'anyOf');
      case 'ZodDiscriminatedUnion':
        return this.discriminated(def.discriminator as string, def.options as z.ZodTypeAny[], direction);
      case 'ZodNullable':
        return nullable(this.write(def.innerType as z.ZodTypeAny, direction));
      case 'ZodOptional':
      case 'ZodReadonly':
      case 'ZodCatch':
        return this.write(def.innerType as z.ZodTypeAny, direction);
      case 'ZodBranded':
        return this.write(def.type as z.ZodTypeAny, direction);
      case 'ZodLazy':
        return this.write((def.getter as () => z.ZodTypeAny)(), direction);
      case 'ZodDefault': {
        const inner = this.write(def.innerType as z.ZodTypeAny, direction);
        return direction === 'input' ? { ...inner, default: (def.defaultValue as () => unknown)() } : inner;
      }
      case 'ZodEffects': {
        const effect = (def.effect as { type: string }).type;
        // A refinement reads as its schema; what a transform answers, or a preprocess takes, has no schema.
        if (effect === 'refinement' || (effect === 'transform' && direction === 'input') || (effect === 'preprocess' && direction === 'output')) {
          return this.write(def.schema as z.ZodTypeAny, direction);
        }
        return {};
      }
      case 'ZodPipeline':
        return this.write((direction === 'input' ? def.in : def.out) as z.ZodTypeAny, direction);
      default:
        throw new Error(`no JSON Schema for a ${def.typeName}`);
    }
  }

  private object(schema: z.AnyZodObject, direction: Direction): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, value] of Object.entries(schema.shape as Record<string, z.ZodTypeAny>)) {
      properties[key] = this.write(value, direction);
      if (!mayBeLeftOut(value, direction)) required.push(key);
    }
    const out: JsonSchema = { type: 'object', properties };
    if (required.length > 0) out.required = required;
    const def = defOf(schema);
    const catchall = def.catchall as z.ZodTypeAny;
    if (defOf(catchall).typeName !== 'ZodNever') out.additionalProperties = this.write(catchall, direction);
    else if (def.unknownKeys === 'strict') out.additionalProperties = false;
    return out;
  }

  /** One member per alternative; alternatives that read alike are written once. */
  private union(members: JsonSchema[], keyword: 'anyOf' | 'oneOf'): JsonSchema {
    const unique = [...new Map(members.map((m) => [JSON.stringify(m), m])).values()];
    return unique.length === 1 ? (unique[0] as JsonSchema) : { [keyword]: unique };
  }

  /**
   * A discriminated union is `oneOf` (its members exclude each other by the discriminator). The
   * `discriminator` keyword is given only where every member is a `$ref` with the value as a
   * constant, as OpenAPI defines it; code generators mishandle it over inline members.
   */
  private discriminated(discriminator: string, options: z.ZodTypeAny[], direction: Direction): JsonSchema {
    const members = options.map((o) => this.write(o, direction));
    const out: JsonSchema = { oneOf: members };
    if (members.every((m) => typeof m.$ref === 'string')) {
      const mapping: Record<string, string> = {};
      for (const [i, option] of options.entries()) {
        const value = defOf((option as z.AnyZodObject).shape[discriminator] as z.ZodTypeAny).value;
        if (typeof value !== 'string') return out;
        mapping[value] = (members[i] as { $ref: string }).$ref;
      }
      out.discriminator = { propertyName: discriminator, mapping };
    }
    return out;
  }
}

/**
 * Whether a request may hold something else than the answer (`z.input` differs from `z.output`):
 * a default, a transform, a preprocess or a pipeline anywhere inside.
 */
function readsDifferently(schema: z.ZodTypeAny, seen = new Set<z.ZodTypeAny>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const def = defOf(schema);
  if (def.typeName === 'ZodDefault' || def.typeName === 'ZodPipeline') return true;
  if (def.typeName === 'ZodEffects' && (def.effect as { type: string }).type !== 'refinement') return true;
  const children: unknown[] = [def.innerType, def.type, def.schema, def.keyType, def.valueType, def.catchall, ...((def.options as unknown[] | undefined) ?? [])];
  if (def.typeName === 'ZodObject') children.push(...Object.values((schema as z.AnyZodObject).shape as Record<string, unknown>));
  if (def.typeName === 'ZodLazy') children.push((def.getter as () => unknown)());
  return children.some((c) => c instanceof z.ZodType && readsDifferently(c, seen));
}

/** Whether an object may leave out a property of this schema: optional, or (in a request) with a default. */
function mayBeLeftOut(schema: z.ZodTypeAny, direction: Direction): boolean {
  for (let s: z.ZodTypeAny | undefined = schema; s; ) {
    const def = defOf(s);
    if (def.typeName === 'ZodOptional') return true;
    if (def.typeName === 'ZodDefault') return direction === 'input';
    if (def.typeName === 'ZodNullable' || def.typeName === 'ZodReadonly' || def.typeName === 'ZodBranded' || def.typeName === 'ZodCatch') {
      s = (def.innerType ?? def.type) as z.ZodTypeAny;
    } else if (def.typeName === 'ZodEffects' && (def.effect as { type: string }).type === 'refinement') {
      s = def.schema as z.ZodTypeAny;
    } else return false;
  }
  return false;
}

/** `schema` or null: `type: [t, 'null']` where the schema is one plain type, else `anyOf` with null. */
function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && !('$ref' in schema)) {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    if ('const' in schema) {
      delete out.const;
      out.enum = [schema.const, null];
    }
    return out;
  }
  if (Array.isArray(schema.type) || (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((m) => m.type === 'null'))) return schema;
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}

const FORMATS: Record<string, string> = { email: 'email', uuid: 'uuid', url: 'uri', datetime: 'date-time', date: 'date', time: 'time' };

function stringSchema(checks: { kind: string; [key: string]: unknown }[]): JsonSchema {
  const out: JsonSchema = { type: 'string' };
  const patterns: string[] = [];
  for (const check of checks) {
    if (check.kind === 'min') out.minLength = check.value;
    else if (check.kind === 'max') out.maxLength = check.value;
    else if (check.kind === 'length') Object.assign(out, { minLength: check.value, maxLength: check.value });
    else if (check.kind === 'regex') patterns.push((check.regex as RegExp).source);
    else if (check.kind === 'startsWith') patterns.push(`^${escapeRegex(check.value as string)}`);
    else if (check.kind === 'endsWith') patterns.push(`${escapeRegex(check.value as string)}$`);
    else if (check.kind === 'includes') patterns.push(escapeRegex(check.value as string));
    else if (check.kind === 'ip') out.format = check.version === 'v6' ? 'ipv6' : check.version === 'v4' ? 'ipv4' : undefined;
    else if (FORMATS[check.kind]) out.format = FORMATS[check.kind];
    else if (!['trim', 'toLowerCase', 'toUpperCase'].includes(check.kind)) throw new Error(`no JSON Schema for the string check ${check.kind}`);
  }
  if (out.format === undefined) delete out.format;
  const [first, ...more] = patterns;
  if (first !== undefined) out.pattern = first;
  // JSON Schema has one `pattern` per schema: any further one is an `allOf` member of its own.
  if (more.length > 0) out.allOf = more.map((pattern) => ({ pattern }));
  return out;
}

function numberSchema(checks: { kind: string; value?: number; inclusive?: boolean }[]): JsonSchema {
  const out: JsonSchema = { type: 'number' };
  for (const check of checks) {
    if (check.kind === 'int') out.type = 'integer';
    else if (check.kind === 'min') out[check.inclusive ? 'minimum' : 'exclusiveMinimum'] = check.value;
    else if (check.kind === 'max') out[check.inclusive ? 'maximum' : 'exclusiveMaximum'] = check.value;
    else if (check.kind === 'multipleOf') out.multipleOf = check.value;
    else if (check.kind !== 'finite') throw new Error(`no JSON Schema for the number check ${check.kind}`);
  }
  return out;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
