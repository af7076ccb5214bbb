/**
 * Reads a zod schema back into rows a reader can check a request against: one row per field with
 * its type, whether it is required, and every limit zod enforces (lengths, ranges, patterns, enums,
 * item counts, custom checks). Used by the API reference (`api-reference.ts`), so limits are never
 * retyped in the docs.
 */
import { z, type ZodTypeAny } from 'zod';
import { unwrapSchema } from '../src/zod-walk.js';

export interface FieldRow {
  /** `amount.value`, `evidence[].content`; empty for the schema itself. */
  path: string;
  type: string;
  required: boolean;
  nullable: boolean;
  /** Limits in reading order, for example `3–255 chars`, `pattern ^[A-Z]{3}$`. */
  limits: string[];
}

export interface FieldOptions {
  /**
   * A name for a long enumeration (say `IsoCountry`), listed once elsewhere instead of in every
   * row; enumerations it has no name for are written out in full.
   */
  enumName?: (values: readonly string[]) => string | undefined;
}

/** Enumerations longer than this are referred to by name when they have one. */
export const LONG_ENUM = 30;

/** What a schema is once its wrappers are peeled off, with the limits the wrappers add. */
interface Unwrapped {
  core: ZodTypeAny;
  required: boolean;
  nullable: boolean;
  limits: string[];
}

/**
 * Values that break the custom checks a field can carry (decimals, calendar dates, decoded file
 * size). A refinement keeps its message in a closure, so the only way to read it is to make it
 * fail. A refinement none of these trigger is listed as UNREAD_CHECK, which the reference test
 * rejects, so a new kind of check gets a probe here rather than silently no documentation.
 */
const PROBES: Record<string, unknown[]> = {
  number: [1.00001],
  string: ['2023-02-30', 'A'.repeat(1_500_000)],
};

export const UNREAD_CHECK = 'a custom check no probe could trigger';

function customCheckMessages(schema: ZodTypeAny, inner: ZodTypeAny): string[] {
  const probes = PROBES[baseKind(inner)] ?? [];
  const messages = new Set<string>();
  for (const probe of probes) {
    const result = schema.safeParse(probe);
    if (result.success) continue;
    for (const issue of result.error.issues) if (issue.code === 'custom') messages.add(issue.message);
  }
  return messages.size === 0 ? [UNREAD_CHECK] : [...messages];
}

function baseKind(schema: ZodTypeAny): string {
  const { core } = unwrapSchema(schema);
  if (core instanceof z.ZodNumber) return 'number';
  if (core instanceof z.ZodString) return 'string';
  return 'other';
}

function unwrap(schema: ZodTypeAny, options: FieldOptions = {}): Unwrapped {
  const { core, optional, nullable, wrappers } = unwrapSchema(schema);
  const limits: string[] = [];
  for (const wrapper of wrappers) {
    if (wrapper.kind === 'default') limits.push(`default ${JSON.stringify(wrapper.defaultValue())}`);
    else if (wrapper.kind === 'effects' && wrapper.effect === 'refinement') {
      // A rule on a whole object ties its fields together; no single value can probe it.
      if (unwrapSchema(wrapper.inner).core instanceof z.ZodObject) limits.push('cross-field rules (a violation names the field)');
      // A check that describes itself (`.describe()`, which the OpenAPI document shows too) is
      // documented by that text: a check against a list, such as the currency codes, names the
      // value it refuses, so no probe reads a message that fits every value.
      else if (wrapper.schema.description) limits.push(wrapper.schema.description);
      else limits.push(...customCheckMessages(wrapper.schema, wrapper.inner));
    } else if (wrapper.kind === 'pipeline') {
      // `a.pipe(b)`: a value must pass both, so both sides' limits apply.
      const out = unwrap(wrapper.out, options);
      limits.push(...out.limits, ...describeLimits(out.core, options));
    }
  }
  return { core, required: !optional, nullable, limits };
}

function stringLimits(schema: z.ZodString): string[] {
  const out: string[] = [];
  const { minLength: min, maxLength: max } = schema;
  if (min !== null && max !== null) out.push(`${min}–${max} chars`);
  else if (min !== null) out.push(`at least ${min} chars`);
  else if (max !== null) out.push(`at most ${max} chars`);
  for (const check of schema._def.checks) {
    if (check.kind === 'length') out.push(`exactly ${check.value} chars`);
    else if (check.kind === 'regex') out.push(`pattern \`${check.regex.source}\``);
    else if (check.kind === 'datetime') out.push(`ISO 8601 date-time${check.offset ? ' (Z or offset)' : ' (Z)'}`);
    else if (check.kind !== 'min' && check.kind !== 'max') out.push(`format ${check.kind}`);
  }
  return out;
}

function numberLimits(schema: z.ZodNumber): string[] {
  const out: string[] = [];
  for (const check of schema._def.checks) {
    if (check.kind === 'min') out.push(`${check.inclusive ? '≥' : '>'} ${check.value}`);
    else if (check.kind === 'max') out.push(`${check.inclusive ? '≤' : '<'} ${check.value}`);
    else if (check.kind === 'multipleOf') out.push(`multiple of ${check.value}`);
    else if (check.kind === 'finite') out.push('finite');
  }
  return out;
}

function describeLimits(schema: ZodTypeAny, options: FieldOptions): string[] {
  if (schema instanceof z.ZodString) return stringLimits(schema);
  if (schema instanceof z.ZodNumber) return numberLimits(schema);
  if (schema instanceof z.ZodArray) {
    const { minLength, maxLength, exactLength } = schema._def;
    const out: string[] = [];
    if (exactLength) out.push(`exactly ${exactLength.value} items`);
    if (minLength && maxLength) out.push(`${minLength.value}–${maxLength.value} items`);
    else if (minLength) out.push(`at least ${minLength.value} items`);
    else if (maxLength) out.push(`at most ${maxLength.value} items`);
    return out;
  }
  if (schema instanceof z.ZodEnum) {
    const values = schema.options as string[];
    const name = values.length > LONG_ENUM ? options.enumName?.(values) : undefined;
    return [name ? `one of the ${values.length} values of ${name}` : `one of ${values.map((o) => `\`${o}\``).join(', ')}`];
  }
  if (schema instanceof z.ZodObject && schema._def.unknownKeys === 'strict') return ['unknown fields rejected'];
  return [];
}

/** A short type name: `string`, `integer`, `object`, `array of object`, `"CARD"`. */
export function typeName(schema: ZodTypeAny): string {
  const { core } = unwrapSchema(schema);
  if (core instanceof z.ZodString) return 'string';
  if (core instanceof z.ZodNumber) return core._def.checks.some((c) => c.kind === 'int') ? 'integer' : 'number';
  if (core instanceof z.ZodBoolean) return 'boolean';
  if (core instanceof z.ZodEnum) return 'enum';
  if (core instanceof z.ZodLiteral) return JSON.stringify(core.value);
  if (core instanceof z.ZodObject) return 'object';
  if (core instanceof z.ZodRecord) return `map of ${typeName(core.valueSchema as ZodTypeAny)}`;
  if (core instanceof z.ZodArray) return `array of ${typeName(core.element as ZodTypeAny)}`;
  if (core instanceof z.ZodUnion || core instanceof z.ZodDiscriminatedUnion) {
    return [...new Set((core.options as ZodTypeAny[]).map(typeName))].join(' | ');
  }
  if (core instanceof z.ZodNull) return 'null';
  if (core instanceof z.ZodUnknown || core instanceof z.ZodAny) return 'any JSON';
  if (core instanceof z.ZodUndefined || core instanceof z.ZodVoid) return 'nothing';
  return core.constructor.name.replace(/^Zod/, '').toLowerCase();
}

/** The field rows of a schema, depth first, in declaration order. */
export function fieldRows(schema: ZodTypeAny, options: FieldOptions = {}, path = ''): FieldRow[] {
  const unwrapped = unwrap(schema, options);
  const { core } = unwrapped;
  const self: FieldRow = {
    path,
    type: typeName(schema),
    required: unwrapped.required,
    nullable: unwrapped.nullable,
    limits: [...describeLimits(core, options), ...unwrapped.limits],
  };
  const rows: FieldRow[] = [self];
  if (core instanceof z.ZodObject) {
    for (const [name, child] of Object.entries(core.shape as Record<string, ZodTypeAny>)) {
      rows.push(...fieldRows(child, options, path ? `${path}.${name}` : name));
    }
  } else if (core instanceof z.ZodArray) {
    rows.push(...fieldRows(core.element as ZodTypeAny, options, `${path}[]`).filter((row) => row.path !== `${path}[]` || isStructured(row)));
  } else if (core instanceof z.ZodRecord) {
    rows.push(...fieldRows(core.valueSchema as ZodTypeAny, options, `${path}.<key>`).slice(1));
  } else if (core instanceof z.ZodDiscriminatedUnion) {
    const discriminator = core.discriminator as string;
    for (const option of core.options as z.ZodObject<z.ZodRawShape>[]) {
      const tag = JSON.stringify((option.shape[discriminator] as z.ZodLiteral<unknown>).value);
      for (const row of fieldRows(option, options, path).slice(1)) rows.push({ ...row, limits: [`when ${discriminator} is ${tag}`, ...row.limits] });
    }
  } else if (core instanceof z.ZodUnion) {
    (core.options as ZodTypeAny[]).forEach((option, index) => {
      for (const row of fieldRows(option, options, path).slice(1)) rows.push({ ...row, limits: [`in variant ${index + 1}`, ...row.limits] });
    });
  }
  return rows;
}

/** An array element row is worth its own line only when it says something the array row does not. */
function isStructured(row: FieldRow): boolean {
  return row.limits.length > 0 || row.nullable;
}
