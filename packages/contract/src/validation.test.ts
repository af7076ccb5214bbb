import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CreateCustomerBody } from './customers/schemas.js';
import { RefundBody } from './payments/schemas.js';
import { describeIssues, formatIssuePath } from './validation.js';

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
