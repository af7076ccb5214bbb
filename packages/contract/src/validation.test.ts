import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CreateCustomerBody } from './customers/schemas.js';
import { RefundBody } from './payments/schemas.js';
import { MetadataItem } from './shared/shapes.js';
import { contract } from './api.js';
import { listRoutes } from './routes-list.js';
import { CreateFaultRuleBody } from './sandbox/faults.js';
import { sandboxContract } from './sandbox/routes.js';
import { unwrapSchema } from './zod-walk.js';
import { boundMessages, describeIssues, describeRequestIssues, formatIssuePath, listOf, MAX_ERROR_MESSAGES, MAX_MESSAGE_LENGTH, queryBoolean, queryInteger, UNSPECIFIED_ARRAY_LIMIT } from './validation.js';

/** The messages `schema` gives `value`, which it must refuse. */
function messagesFor(schema: z.ZodTypeAny, value: unknown, location: 'body' | 'query' = 'body'): string[] {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected ${JSON.stringify(value)} to be refused`);
  return describeIssues(result.error, location);
}

/** Every enum (its values) anywhere in `schema`, objects, arrays, unions and records included. */
function enumsIn(schema: z.ZodTypeAny, found: Array<readonly string[]> = [], seen = new Set<z.ZodTypeAny>()): Array<readonly string[]> {
  const { core } = unwrapSchema(schema);
  if (seen.has(core)) return found;
  seen.add(core);
  if (core instanceof z.ZodEnum) found.push(core.options as string[]);
  else if (core instanceof z.ZodObject) for (const field of Object.values(core.shape as Record<string, z.ZodTypeAny>)) enumsIn(field, found, seen);
  else if (core instanceof z.ZodArray) enumsIn(core.element, found, seen);
  else if (core instanceof z.ZodUnion || core instanceof z.ZodDiscriminatedUnion) for (const option of core.options as z.ZodTypeAny[]) enumsIn(option, found, seen);
  else if (core instanceof z.ZodRecord) enumsIn(core.valueSchema, found, seen);
  else if (core instanceof z.ZodIntersection) for (const side of [core._def.left, core._def.right]) enumsIn(side, found, seen);
  return found;
}

const everyRoute = [...listRoutes(contract), ...listRoutes(sandboxContract)];

describe('describeIssues', () => {
  it('writes paths the way a reader does', () => {
    expect(formatIssuePath(['evidence', 0, 'content'])).toBe('evidence[0].content');
    expect(formatIssuePath([])).toBe('');
  });

  it('names the field and the rule, without zod wording', () => {
    const result = CreateCustomerBody.safeParse({ merchant_customer_id: 'ab', country: 'XX', metadata: [] });
    if (result.success) throw new Error('expected failure');
    const messages = describeIssues(result.error, 'body');
    expect(messages).toContain('body.merchant_customer_id: must be at least 3 characters');
    expect(messages.find((m) => m.startsWith('body.country: must be one of AD, AE'))).toBeDefined();
  });

  it('says a missing field is required', () => {
    const result = RefundBody.safeParse({});
    if (result.success) throw new Error('expected failure');
    expect(describeIssues(result.error, 'body')).toEqual(['body.merchant_reference: is required']);
  });

  it('keeps custom rule messages', () => {
    const result = RefundBody.safeParse({ merchant_reference: 'ref', amount: { currency: 'ARS', value: 0.00001 } });
    if (result.success) throw new Error('expected failure');
    expect(describeIssues(result.error, 'body')).toEqual(
      expect.arrayContaining(['body.amount.value: must be a multiple of 0.0001 (at most 4 decimals)']),
    );
  });

  it('handles a root-level issue and array roots', () => {
    const result = z.array(z.string()).safeParse([1]);
    if (result.success) throw new Error('expected failure');
    expect(describeIssues(result.error, 'body')).toEqual(['body[0]: must be string, received number']);
    const root = z.object({}).strict().safeParse({ extra: 1 });
    if (root.success) throw new Error('expected failure');
    expect(describeIssues(root.error, 'query')).toEqual(['query: has unknown field(s) extra']);
  });
});

describe('enum messages', () => {
  const Short = z.object({ kind: z.enum(['CARD', 'PIX', 'CASH']) });
  const Long = z.object({ code: z.enum(Array.from({ length: 40 }, (_, i) => `CODE_NUMBER_${i}`) as [string, ...string[]]) });

  it('list every value of a short enum', () => {
    expect(messagesFor(Short, { kind: 'card' })).toEqual(['body.kind: must be one of CARD, PIX, CASH']);
  });

  it('name a few values of a long enum, how many more and where all are listed', () => {
    expect(messagesFor(Long, { code: 'nothing like it' })).toEqual(['body.code: must be one of CODE_NUMBER_0, CODE_NUMBER_1, CODE_NUMBER_2, CODE_NUMBER_3 and 36 more, all listed in docs/api-reference.md']);
  });

  it('suggest the values of a long enum a caller most likely meant: the same but for case and separators, else the nearest', () => {
    expect(messagesFor(Long, { code: 'code-number-7' })).toEqual(['body.code: must be one of 40 values, all listed in docs/api-reference.md; did you mean CODE_NUMBER_7?']);
    expect(messagesFor(Long, { code: 'CODE_NUMBR_12' })).toEqual(['body.code: must be one of 40 values, all listed in docs/api-reference.md; did you mean CODE_NUMBER_12?']);
    expect(messagesFor(Long, { code: 'x'.repeat(10_000) })[0]).toMatch(/^body\.code: must be one of CODE_NUMBER_0, .* and 36 more, all listed in docs\/api-reference\.md$/);
  });

  it('keep a schema\'s own message, with the suggestion, and never join the values when another type is given', () => {
    const rule = 'body.match.operation_id: must be the operationId of a /v1 route, as GET /openapi.json lists them; control routes under /sandbox cannot be faulted';
    const fault = (operation_id: unknown) => messagesFor(CreateFaultRuleBody, { match: { operation_id }, effect: { type: 'reset' } });
    expect(fault('getClock')).toEqual([rule]);
    expect(fault('sandboxGetClock')).toEqual([rule]);
    expect(fault('createCustomers')).toEqual([`${rule}; did you mean createCustomer?`]);
    expect(fault(5)).toEqual([`${rule}, received number`]);
    expect(messagesFor(Long, { code: 5 })).toEqual(['body.code: must be one of CODE_NUMBER_0, CODE_NUMBER_1, CODE_NUMBER_2, CODE_NUMBER_3 and 36 more, all listed in docs/api-reference.md, received number']);
    expect(messagesFor(Short, { kind: 5 })).toEqual(['body.kind: must be one of CARD, PIX, CASH, received number']);
  });

  it('fit every enum of the contract in one message, uncut, for any value outside it', () => {
    const enums = everyRoute.flatMap(({ route }) => ['body', 'query', 'pathParams'].flatMap((part) => {
      const schema = (route as unknown as Record<string, unknown>)[part];
      return schema instanceof z.ZodType ? enumsIn(schema) : [];
    }));
    expect(enums.some((values) => values.length > 200)).toBe(true);
    for (const values of enums) {
      for (const value of ['zz', values[0]!.toLowerCase(), `${values[0]!}x`, 'x'.repeat(10_000)]) {
        const result = z.object({ a_long_field_name: z.object({ and_another_one: z.enum(values as [string, ...string[]]) }) }).safeParse({ a_long_field_name: { and_another_one: value } });
        if (result.success) continue;
        const [message] = describeRequestIssues({ body: result.error });
        expect(message!.length, message).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
        expect(message, message).not.toMatch(/…|'/);
      }
    }
  });
});

describe('union messages', () => {
  it('name the alternatives when each refused the value for its type or value, not "Invalid input"', () => {
    expect(messagesFor(z.object({ tip: z.number().or(z.string()) }), { tip: true })).toEqual(['body.tip: must be number or string']);
    expect(messagesFor(z.object({ type: z.enum(['CARD']).or(z.string().regex(/_ENROLLMENT$/)) }), { type: 5 })).toEqual(['body.type: must be CARD or string']);
    expect(messagesFor(z.object({ v: z.literal('a').or(z.literal(1)) }), { v: 'b' })).toEqual(['body.v: must be "a" or 1']);
  });

  it('say no form matched when the alternatives refused fields inside the value', () => {
    const card = z.union([z.object({ number: z.string() }), z.object({ token: z.string() })]);
    expect(messagesFor(z.object({ card }), { card: {} })).toEqual(['body.card: matches none of the forms this field takes']);
  });
});

describe('query parameters', () => {
  it('queryInteger takes decimal digits and names anything else it received', () => {
    const limit = z.object({ limit: queryInteger(1, 1000).optional() });
    expect(limit.parse({ limit: '42' })).toEqual({ limit: 42 });
    expect(limit.parse({ limit: 7 })).toEqual({ limit: 7 });
    expect(limit.parse({})).toEqual({});
    for (const text of ['abc', '', ' 5', '1.5', '0x10', '1e2', 'NaN', 'Infinity']) {
      expect(messagesFor(limit, { limit: text }, 'query'), text).toEqual([`query.limit: must be a whole number, received ${JSON.stringify(text)}`]);
    }
    expect(messagesFor(limit, { limit: '0' }, 'query')).toEqual(['query.limit: must be at least 1']);
    expect(messagesFor(limit, { limit: '1001' }, 'query')).toEqual(['query.limit: must be at most 1000']);
    expect(messagesFor(limit, { limit: '9'.repeat(400) }, 'query')).toEqual(['query.limit: must be a whole number of at most 15 digits']);
    expect(messagesFor(limit, { limit: 'x'.repeat(10_000) }, 'query')).toEqual([`query.limit: must be a whole number, received "${'x'.repeat(39)}…"`]);
    expect(messagesFor(limit, { limit: ['1', '2'] }, 'query')).toEqual(['query.limit: must be number, received array']);
  });

  it('queryInteger keeps reading query text after another rule is added', () => {
    const narrower = queryInteger(1, 1000).max(3);
    expect(narrower.parse('2')).toBe(2);
    expect(messagesFor(narrower, '4', 'query')).toEqual(['query: must be at most 3']);
    expect(messagesFor(narrower.int(), 'x', 'query')).toEqual(['query: must be a whole number, received "x"']);
  });

  it('queryBoolean takes true and false, as text or booleans, and says so to anything else', () => {
    const flag = z.object({ raw: queryBoolean().optional() });
    expect(flag.parse({ raw: 'true' })).toEqual({ raw: true });
    expect(flag.parse({ raw: 'false' })).toEqual({ raw: false });
    expect(flag.parse({ raw: true })).toEqual({ raw: true });
    expect(messagesFor(flag, { raw: 'maybe' }, 'query')).toEqual(['query.raw: must be true or false, received "maybe"']);
    expect(messagesFor(flag, { raw: ['true', 'true'] }, 'query')).toEqual(['query.raw: must be true or false']);
  });

  it('every query parameter of every route says what it takes, in the contract\'s words, not zod\'s', () => {
    let checked = 0;
    for (const { route, meta } of everyRoute) {
      const query = route.query as z.AnyZodObject | undefined | null;
      if (!(query instanceof z.ZodObject)) continue;
      for (const field of Object.keys(query.shape as object)) {
        for (const value of ['maybe', '', '1.5', ['1', '2']]) {
          const result = query.safeParse({ [field]: value });
          if (result.success) continue;
          checked += 1;
          for (const message of describeIssues(result.error, 'query')) {
            expect(message, `${meta.operationId} ${field}=${JSON.stringify(value)}`).not.toMatch(/Invalid input|received nan|Expected|Required|'/);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('bounded answers', () => {
  it('keeps the first MAX_ERROR_MESSAGES messages of an answer and counts the rest in one more', () => {
    const result = z.array(z.string()).safeParse(Array.from({ length: 1000 }, () => 0));
    if (result.success) throw new Error('expected failure');
    expect(describeIssues(result.error, 'body')).toHaveLength(1000);
    const messages = describeRequestIssues({ body: result.error });
    expect(messages).toHaveLength(MAX_ERROR_MESSAGES + 1);
    expect(messages[0]).toBe('body[0]: must be string, received number');
    expect(messages.at(-1)).toBe(`and ${1000 - MAX_ERROR_MESSAGES} more problem(s) not listed`);
  });

  it('bounds a request\'s messages as a whole, path first', () => {
    const many = z.array(z.string()).safeParse(Array.from({ length: 30 }, () => 0));
    const one = z.object({ id: z.string() }).safeParse({});
    if (many.success || one.success) throw new Error('expected failure');
    const messages = describeRequestIssues({ body: many.error, path: one.error });
    expect(messages[0]).toBe('path.id: is required');
    expect(messages).toHaveLength(MAX_ERROR_MESSAGES + 1);
    expect(messages.at(-1)).toBe(`and ${31 - MAX_ERROR_MESSAGES} more problem(s) not listed`);
  });

  it('cuts long messages, long field names and long lists of unknown fields', () => {
    const huge = 'k'.repeat(100_000);
    const strict = z.object({}).strict().safeParse(Object.fromEntries([huge, ...Array.from({ length: 50 }, (_, i) => `x${i}`)].map((k) => [k, 1])));
    if (strict.success) throw new Error('expected failure');
    const [message] = describeIssues(strict.error, 'body');
    expect(message).toMatch(/^body: has unknown field\(s\) k{39}…, x0, x1, x2, x3 and 46 more$/);
    const nested = z.record(z.string(), z.number()).safeParse({ [huge]: 'x' });
    if (nested.success) throw new Error('expected failure');
    expect(describeRequestIssues({ body: nested.error })[0]!.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(boundMessages(['m'.repeat(10_000)])[0]).toHaveLength(MAX_MESSAGE_LENGTH);
    // Cut before a surrogate pair, not through it.
    const [emoji] = boundMessages([`${'m'.repeat(MAX_MESSAGE_LENGTH - 2)}😀😀`]);
    expect(emoji).toBe(`${'m'.repeat(MAX_MESSAGE_LENGTH - 2)}…`);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('writes out one problem more than the limit rather than a line counting it, and bounds bounded messages to themselves', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`);
    expect(boundMessages(lines(MAX_ERROR_MESSAGES + 1))).toEqual(lines(MAX_ERROR_MESSAGES + 1));
    const bounded = boundMessages(lines(100));
    expect(bounded).toEqual([...lines(MAX_ERROR_MESSAGES), `and ${100 - MAX_ERROR_MESSAGES} more problem(s) not listed`]);
    expect(boundMessages(bounded)).toEqual(bounded);
  });
});

describe('listOf', () => {
  it('answers one "too many items" issue without parsing the items', () => {
    const items = Array.from({ length: 2_500_000 }, () => 0);
    const result = listOf(MetadataItem, 50).safeParse(items);
    if (result.success) throw new Error('expected failure');
    expect(describeIssues(result.error, 'body')).toEqual(['body: must have at most 50 item(s)']);
  });

  it('parses the items of a list within its limit, and keeps checking length first after .min()', () => {
    const list = listOf(z.string(), 3).min(1);
    expect(list.safeParse(['a']).success).toBe(true);
    const tooFew = list.safeParse([]);
    if (tooFew.success) throw new Error('expected failure');
    expect(describeIssues(tooFew.error, 'body')).toEqual(['body: must have at least 1 item(s)']);
    const tooMany = list.safeParse([1, 2, 3, 4]);
    if (tooMany.success) throw new Error('expected failure');
    expect(describeIssues(tooMany.error, 'body')).toEqual(['body: must have at most 3 item(s)']);
    expect(listOf(z.string()).safeParse(Array.from({ length: UNSPECIFIED_ARRAY_LIMIT + 1 }, () => 'a')).success).toBe(false);
  });

  it('bounds the request arrays of the contract: customer metadata at 50 (spec §8)', () => {
    const result = CreateCustomerBody.safeParse({ merchant_customer_id: 'abc', metadata: Array.from({ length: 51 }, () => 0) });
    if (result.success) throw new Error('expected failure');
    expect(describeIssues(result.error, 'body')).toEqual(['body.metadata: must have at most 50 item(s)']);
  });
});
