import { Currency, ISO_CURRENCIES, unwrapSchema, wrapperOf } from '@switchyard/contract';
import type { z, ZodString, ZodTypeAny } from 'zod';
import type { Random } from './random.js';

/**
 * A plausible value of a zod schema: what a well-meaning client would send, so that fuzzed
 * variants of it get past the first field and reach the rules and the store behind.
 * Optional fields are present half of the time.
 */
export function sampleOf(schema: ZodTypeAny, random: Random, depth = 0): unknown {
  if (depth > 12) return undefined;
  const wrapper = wrapperOf(schema);
  if (wrapper) return wrapper.kind === 'optional' && !random.chance(0.5) ? undefined : sampleOf(wrapper.inner, random, depth + 1);
  const def = schema._def as { typeName?: string } & Record<string, unknown>;
  switch (def.typeName) {
    case 'ZodObject': {
      const shape = (schema as z.AnyZodObject).shape as Record<string, ZodTypeAny>;
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(shape)) {
        const value = sampleOf(field, random, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'ZodArray': {
      const min = (def.minLength as { value: number } | null)?.value ?? 0;
      return Array.from({ length: Math.max(min, 1) }, () => sampleOf(def.type as ZodTypeAny, random, depth + 1));
    }
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion': {
      const options = (Array.isArray(def.options) ? def.options : [...(def.options as Map<unknown, ZodTypeAny>).values()]) as ZodTypeAny[];
      return sampleOf(random.pick(options), random, depth + 1);
    }
    case 'ZodIntersection':
      return { ...(sampleOf(def.left as ZodTypeAny, random, depth + 1) as object), ...(sampleOf(def.right as ZodTypeAny, random, depth + 1) as object) };
    case 'ZodEnum':
      return random.pick(def.values as string[]);
    case 'ZodNativeEnum':
      return random.pick(Object.values(def.values as object));
    case 'ZodLiteral':
      return def.value;
    case 'ZodBoolean':
      return random.chance(0.5);
    case 'ZodNumber':
      return sampleNumber(def.checks as Array<{ kind: string; value?: number }>);
    case 'ZodString':
      return sampleString(def.checks as Array<{ kind: string; value?: number; regex?: RegExp }>, random);
    case 'ZodRecord':
      return { note: 'fuzz' };
    default:
      return 'fuzz';
  }
}

function sampleNumber(checks: Array<{ kind: string; value?: number }>): number {
  const min = checks.find((c) => c.kind === 'min')?.value;
  const max = checks.find((c) => c.kind === 'max')?.value;
  if (min !== undefined && min > 0) return min;
  if (max !== undefined && max < 1) return max;
  return 1;
}

/**
 * The pattern of the contract's currency fields. A string with it is a code of ISO_CURRENCIES:
 * three random letters are mostly no currency, and the fuzzed body would stop at its currency.
 */
const CURRENCY_PATTERN = (unwrapSchema(Currency).core as ZodString)._def.checks.find((c) => c.kind === 'regex')?.regex.source;

function sampleString(checks: Array<{ kind: string; value?: number; regex?: RegExp }>, random: Random): string {
  const kinds = new Set(checks.map((c) => c.kind));
  if (checks.some((c) => c.regex?.source === CURRENCY_PATTERN)) return random.pick(ISO_CURRENCIES);
  if (kinds.has('uuid')) return random.uuid();
  if (kinds.has('datetime')) return '2026-01-02T03:04:05.000Z';
  if (kinds.has('email')) return 'fuzz@example.com';
  if (kinds.has('url')) return 'https://example.com/fuzz';
  const exact = checks.find((c) => c.kind === 'length')?.value;
  if (exact !== undefined) return exact === 10 ? '2000-01-02' : exact === 2 ? 'AR' : exact === 3 ? 'ARS' : 'a'.repeat(exact);
  const min = checks.find((c) => c.kind === 'min')?.value ?? 1;
  const max = checks.find((c) => c.kind === 'max')?.value ?? 64;
  return `fuzz-${random.int(1e6)}`.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, 16)));
}
