import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CreateCustomerBody } from './customers/schemas.js';
import { RefundBody } from './payments/schemas.js';
import { MetadataItem } from './shared/shapes.js';
import { boundMessages, describeIssues, describeRequestIssues, formatIssuePath, listOf, MAX_ERROR_MESSAGES, MAX_MESSAGE_LENGTH, UNSPECIFIED_ARRAY_LIMIT } from './validation.js';

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
