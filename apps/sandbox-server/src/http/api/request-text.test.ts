import { describe, expect, it } from 'vitest';
import { MAX_ERROR_MESSAGES, paymentsContract } from '@switchyard/contract';
import { routeTable } from './route-table.js';
import { decodePathParams, isStorableText, unstorableFields } from './request-text.js';

describe('isStorableText', () => {
  it('refuses U+0000 and unpaired surrogates, and keeps paired ones', () => {
    expect(isStorableText('plain text, ñ, 😀')).toBe(true);
    for (const text of ['\u0000', 'a\u0000', '\ud800', 'x\ud800y', '\udc00', '\udc00\ud800']) expect(isStorableText(text), JSON.stringify(text)).toBe(false);
  });
});

describe('unstorableFields', () => {
  it('names each field, keys included, in the path style of the contract', () => {
    const { messages, count } = unstorableFields({ a: [{ b: 'ok' }, { b: 'x\u0000' }], 'k\u0000': 1, c: { d: '\ud800' } }, 'body');
    expect(count).toBe(3);
    expect(messages.sort()).toEqual([
      'body.a[1].b: contains U+0000 or an unpaired surrogate, which cannot be stored',
      'body.c.d: contains U+0000 or an unpaired surrogate, which cannot be stored',
      'body.k?: contains U+0000 or an unpaired surrogate, which cannot be stored',
    ]);
  });

  it('counts every bad field but writes only what an answer shows', () => {
    const { messages, count } = unstorableFields(new Array(1000).fill('\u0000'), 'body');
    expect(count).toBe(1000);
    expect(messages).toHaveLength(MAX_ERROR_MESSAGES + 1);
    expect(messages[0]).toBe('body[0]: contains U+0000 or an unpaired surrogate, which cannot be stored');
  });

  it('finds nothing in storable values, and handles a bare string', () => {
    expect(unstorableFields({ a: [1, null, true, 'ok', { b: {} }] }, 'query')).toEqual({ messages: [], count: 0 });
    expect(unstorableFields('\u0000', 'body').count).toBe(1);
  });
});

describe('decodePathParams', () => {
  const [refund] = routeTable([paymentsContract]).filter((r) => r.meta.operationId === 'refundTransaction');
  if (!refund) throw new Error('no refund route in the contract');

  it('decodes each parameter of the route by the position of its segment', () => {
    const path = '/v1/payments/a%2Fb/transactions/%F0%9F%98%80/refund';
    expect(refund.pattern.test(path)).toBe(true);
    expect(decodePathParams(refund, path)).toEqual({ params: { id: 'a/b', transaction_id: '😀' }, bad: [] });
  });

  it('names each parameter that is not percent-encoded UTF-8', () => {
    expect(decodePathParams(refund, '/v1/payments/%ff/transactions/%e0%80/refund').bad).toEqual([
      'path.id: is not valid percent-encoded UTF-8',
      'path.transaction_id: is not valid percent-encoded UTF-8',
    ]);
  });
});
