/**
 * Peeling zod's wrappers (optional, nullable, default, refinements, pipelines, ...) off a
 * schema, one step at a time or down to the core, for the tools that read schemas back: the API
 * reference, the sandbox's fuzzer and the conformance harness. Reads `_def.typeName` rather than
 * `instanceof`, so a schema built by another copy of zod is read all the same.
 */
import type { ZodTypeAny } from 'zod';

/** One wrapper: the schema it is (`schema`), the schema it wraps (`inner`), and what it adds. */
export type ZodWrapper =
  | { kind: 'optional'; schema: ZodTypeAny; inner: ZodTypeAny }
  | { kind: 'nullable'; schema: ZodTypeAny; inner: ZodTypeAny }
  | { kind: 'default'; schema: ZodTypeAny; inner: ZodTypeAny; defaultValue: () => unknown }
  | { kind: 'effects'; schema: ZodTypeAny; inner: ZodTypeAny; effect: 'refinement' | 'transform' | 'preprocess' }
  /** `in.pipe(out)`: a value must pass both; `inner` is the side that reads the input. */
  | { kind: 'pipeline'; schema: ZodTypeAny; inner: ZodTypeAny; out: ZodTypeAny }
  /** readonly, catch, brand and lazy: nothing a reader of the shape needs to know. */
  | { kind: 'transparent'; schema: ZodTypeAny; inner: ZodTypeAny };

interface WrapperDef {
  typeName?: string;
  innerType?: ZodTypeAny;
  type?: ZodTypeAny;
  schema?: ZodTypeAny;
  in?: ZodTypeAny;
  out?: ZodTypeAny;
  getter?: () => ZodTypeAny;
  defaultValue?: () => unknown;
  effect?: { type: 'refinement' | 'transform' | 'preprocess' };
}

/**
 * The wrapper `schema` is, or undefined when it is a core type (string, object, union, ...) or
 * no zod schema at all (a route's `c.noBody()` or `c.type<T>()`).
 */
export function wrapperOf(schema: ZodTypeAny): ZodWrapper | undefined {
  const def = (schema as { _def?: WrapperDef })._def ?? {};
  switch (def.typeName) {
    case 'ZodOptional':
      return { kind: 'optional', schema, inner: def.innerType as ZodTypeAny };
    case 'ZodNullable':
      return { kind: 'nullable', schema, inner: def.innerType as ZodTypeAny };
    case 'ZodDefault':
      return { kind: 'default', schema, inner: def.innerType as ZodTypeAny, defaultValue: def.defaultValue as () => unknown };
    case 'ZodEffects':
      return { kind: 'effects', schema, inner: def.schema as ZodTypeAny, effect: (def.effect as { type: 'refinement' | 'transform' | 'preprocess' }).type };
    case 'ZodPipeline':
      return { kind: 'pipeline', schema, inner: def.in as ZodTypeAny, out: def.out as ZodTypeAny };
    case 'ZodReadonly':
    case 'ZodCatch':
      return { kind: 'transparent', schema, inner: def.innerType as ZodTypeAny };
    case 'ZodBranded':
      return { kind: 'transparent', schema, inner: def.type as ZodTypeAny };
    case 'ZodLazy':
      return { kind: 'transparent', schema, inner: (def.getter as () => ZodTypeAny)() };
    default:
      return undefined;
  }
}

export interface UnwrappedSchema {
  /** The schema under every wrapper. */
  core: ZodTypeAny;
  /** Whether a value may be left out: an optional or a default wrapper. */
  optional: boolean;
  nullable: boolean;
  /** The wrappers peeled, outermost first. */
  wrappers: ZodWrapper[];
}

/** Peels every wrapper off `schema`. */
export function unwrapSchema(schema: ZodTypeAny): UnwrappedSchema {
  const wrappers: ZodWrapper[] = [];
  let core = schema;
  for (let wrapper = wrapperOf(core); wrapper; wrapper = wrapperOf(core)) {
    wrappers.push(wrapper);
    core = wrapper.inner;
  }
  return {
    core,
    optional: wrappers.some((w) => w.kind === 'optional' || w.kind === 'default'),
    nullable: wrappers.some((w) => w.kind === 'nullable'),
    wrappers,
  };
}
