import { formatIssuePath, unwrapSchema } from '@switchyard/contract';
import { z, type ZodTypeAny } from 'zod';

export interface NegativeCase {
  /** The field the case breaks and how, e.g. `amount.value: below its minimum`. */
  label: string;
  /** The JSON body sent; a string is sent as it is (malformed JSON). */
  body: unknown;
  /** Whether `body` is raw text rather than a value to serialise. */
  raw?: boolean;
  /**
   * Field paths (`amount.value`) the contract itself reports for this body: an error answer must
   * name one of them. Empty when the fault is the body as a whole.
   */
  fields: string[];
}

type Path = (string | number)[];

interface Bounds {
  min?: number;
  max?: number;
  minInclusive: boolean;
  maxInclusive: boolean;
  int: boolean;
}

function stringBounds(s: z.ZodString): Bounds {
  const out: Bounds = { minInclusive: true, maxInclusive: true, int: false };
  for (const c of s._def.checks) {
    if (c.kind === 'min') out.min = c.value;
    if (c.kind === 'max') out.max = c.value;
    if (c.kind === 'length') {
      out.min = c.value;
      out.max = c.value;
    }
  }
  return out;
}

function numberBounds(n: z.ZodNumber): Bounds {
  const out: Bounds = { minInclusive: true, maxInclusive: true, int: false };
  for (const c of n._def.checks) {
    if (c.kind === 'min') {
      out.min = c.value;
      out.minInclusive = c.inclusive;
    }
    if (c.kind === 'max') {
      out.max = c.value;
      out.maxInclusive = c.inclusive;
    }
    if (c.kind === 'int') out.int = true;
  }
  return out;
}

function setAt(root: unknown, path: Path, value: unknown, remove = false): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove) delete node[last];
  else node[last] = value;
  return copy;
}

function getAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string | number, unknown>)[part] : undefined), root);
}

/** The option of a union that accepts `value`, to walk into with it. */
function optionFor(core: ZodTypeAny, value: unknown): ZodTypeAny | undefined {
  const options = (core as { options?: ZodTypeAny[] | Map<unknown, ZodTypeAny> }).options;
  const list = options instanceof Map ? [...options.values()] : (options ?? []);
  return list.find((o) => o.safeParse(value).success);
}

/** Invalid values for one field of schema `fieldSchema` at `path` (valid value `current`, if the valid body has one). */
function casesAt(fieldSchema: ZodTypeAny, path: Path, current: unknown, add: (label: string, body: unknown) => void, valid: unknown): void {
  const name = formatIssuePath(path);
  const { core, optional } = unwrapSchema(fieldSchema);
  const withValue = (value: unknown) => setAt(valid, path, value);
  if (!optional && current !== undefined) add(`${name}: missing (required)`, setAt(valid, path, undefined, true));
  if (core instanceof z.ZodString) {
    const { min, max } = stringBounds(core);
    if (min !== undefined && min > 0) add(`${name}: shorter than ${min}`, withValue('x'.repeat(min - 1)));
    if (max !== undefined && max < 5000) add(`${name}: longer than ${max}`, withValue('x'.repeat(max + 1)));
    add(`${name}: a number instead of a string`, withValue(12345));
  } else if (core instanceof z.ZodEnum || core instanceof z.ZodNativeEnum || core instanceof z.ZodLiteral) {
    add(`${name}: outside its enum`, withValue('NOT_IN_THE_ENUM'));
  } else if (core instanceof z.ZodNumber) {
    const b = numberBounds(core);
    if (b.min !== undefined) {
      add(`${name}: below its minimum ${b.min}`, withValue(b.minInclusive ? b.min - 1 : b.min));
      if (b.min >= 0) add(`${name}: negative`, withValue(-1));
    }
    if (b.max !== undefined) add(`${name}: above its maximum ${b.max}`, withValue(b.maxInclusive ? b.max + 1 : b.max));
    if (b.int) add(`${name}: not a whole number`, withValue(1.5));
    add(`${name}: a string instead of a number`, withValue('12'));
  } else if (core instanceof z.ZodBoolean) {
    add(`${name}: a string instead of a boolean`, withValue('yes'));
  } else if (core instanceof z.ZodArray) {
    add(`${name}: an object instead of an array`, withValue({}));
    const min = (core._def.minLength as { value: number } | null)?.value ?? (core._def.exactLength as { value: number } | null)?.value;
    const max = (core._def.maxLength as { value: number } | null)?.value ?? (core._def.exactLength as { value: number } | null)?.value;
    const items = Array.isArray(current) ? current : [];
    if (min !== undefined && min > 0) add(`${name}: fewer than ${min} item(s)`, withValue(items.slice(0, min - 1)));
    if (max !== undefined && items.length > 0 && max < 10_000) add(`${name}: more than ${max} item(s)`, withValue(Array.from({ length: max + 1 }, (_, i) => structuredClone(items[i % items.length]))));
    if (items.length > 0) casesAt(core.element as ZodTypeAny, [...path, 0], items[0], add, valid);
  } else if (core instanceof z.ZodObject) {
    if (path.length > 0) add(`${name}: a string instead of an object`, withValue('oops'));
    if (current && typeof current === 'object') {
      for (const [field, s] of Object.entries(core.shape as Record<string, ZodTypeAny>)) casesAt(s, [...path, field], getAt(valid, [...path, field]), add, valid);
    }
  } else if (core instanceof z.ZodDiscriminatedUnion || core instanceof z.ZodUnion) {
    const option = current === undefined ? undefined : optionFor(core, current);
    if (path.length > 0 && current !== undefined && typeof current === 'object') add(`${name}: a string instead of an object`, withValue('oops'));
    if (option) casesAt(option, path, current, add, valid);
  }
}

/** The field paths the contract reports for an invalid body. */
function issuePaths(schema: ZodTypeAny, body: unknown): string[] | undefined {
  const parsed = schema.safeParse(body);
  if (parsed.success) return undefined;
  return parsed.error.issues.map((i) => formatIssuePath(i.path)).filter((p) => p !== '');
}

/**
 * Every invalid body derivable from the route's zod schema and a valid body: at every depth, each
 * required field removed, each string shorter or longer than its bounds, each number outside its
 * bounds (0 and negative amounts included) or not whole, each enum value outside its enum, each
 * array outside its item limits, each value of the wrong type; then malformed JSON and bodies that
 * are not an object. Only bodies the contract itself refuses are kept, each with the fields the
 * contract names for it.
 */
export function negativeCases(schema: ZodTypeAny, valid: Record<string, unknown>): NegativeCase[] {
  const cases: NegativeCase[] = [];
  const seen = new Set<string>();
  const add = (label: string, body: unknown) => {
    const key = JSON.stringify(body);
    if (seen.has(key)) return;
    const fields = issuePaths(schema, body);
    if (fields === undefined) return;
    seen.add(key);
    cases.push({ label, body, fields });
  };
  casesAt(schema, [], valid, add, valid);
  cases.push({ label: 'body: malformed JSON', body: `${JSON.stringify(valid).slice(0, -1)},`, raw: true, fields: [] });
  for (const [what, body] of [
    ['an array', [valid]],
    ['a string', 'text'],
    ['null', null],
  ] as const) {
    if (!schema.safeParse(body).success) cases.push({ label: `body: ${what} instead of an object`, body, fields: [] });
  }
  return cases;
}

/** At most `limit` of `cases`, a pick seeded by `seed` so that a run can be repeated. */
export function pickCases(cases: NegativeCase[], limit: number | undefined, seed: number): NegativeCase[] {
  if (limit === undefined || cases.length <= limit) return cases;
  let state = seed >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  return cases
    .map((c) => [random(), c] as const)
    .sort((a, b) => a[0] - b[0])
    .slice(0, limit)
    .map(([, c]) => c);
}
