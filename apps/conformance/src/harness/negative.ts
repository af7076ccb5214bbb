import { unwrapSchema } from '@switchyard/contract';
import { z, type ZodTypeAny } from 'zod';

export interface NegativeCase {
  /** The field the case breaks and how, e.g. `merchant_reference: too long`. */
  label: string;
  body: unknown;
}

function stringBounds(s: z.ZodString): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {};
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

/**
 * Invalid bodies derived from the zod schema, each breaking one rule of one top-level field of a
 * valid body: a required field removed, a string too short or too long, a value outside its enum,
 * a value of the wrong type. Every one must be rejected with a 4xx in the error shape.
 */
export function negativeCases(schema: ZodTypeAny, valid: Record<string, unknown>, limit: number, seed: number): NegativeCase[] {
  const { core: inner } = unwrapSchema(schema);
  if (!(inner instanceof z.ZodObject)) return [];
  const cases: NegativeCase[] = [];
  for (const [field, fieldSchema] of Object.entries(inner.shape as Record<string, ZodTypeAny>)) {
    const { core: f, optional } = unwrapSchema(fieldSchema);
    const withValue = (value: unknown) => ({ ...valid, [field]: value });
    if (!optional) {
      const { [field]: _dropped, ...rest } = valid;
      cases.push({ label: `${field}: missing (required)`, body: rest });
    }
    if (f instanceof z.ZodString) {
      const { min, max } = stringBounds(f);
      if (min !== undefined && min > 1) cases.push({ label: `${field}: shorter than ${min}`, body: withValue('x'.repeat(min - 1)) });
      if (max !== undefined && max < 5000) cases.push({ label: `${field}: longer than ${max}`, body: withValue('x'.repeat(max + 1)) });
      cases.push({ label: `${field}: a number instead of a string`, body: withValue(12345) });
    } else if (f instanceof z.ZodEnum) {
      cases.push({ label: `${field}: outside its enum`, body: withValue('NOT_IN_THE_ENUM') });
    } else if (f instanceof z.ZodNumber) {
      cases.push({ label: `${field}: a string instead of a number`, body: withValue('12') });
    } else if (f instanceof z.ZodBoolean) {
      cases.push({ label: `${field}: a string instead of a boolean`, body: withValue('yes') });
    } else if (f instanceof z.ZodObject) {
      cases.push({ label: `${field}: a string instead of an object`, body: withValue('oops') });
    } else if (f instanceof z.ZodArray) {
      cases.push({ label: `${field}: an object instead of an array`, body: withValue({}) });
    }
  }
  // A seeded pick keeps runs reproducible and bounded.
  let state = seed >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  const shuffled = cases.map((c) => [random(), c] as const).sort((a, b) => a[0] - b[0]).map(([, c]) => c);
  return shuffled.slice(0, limit);
}
