import { describe, expect, it } from 'vitest';
import { describeAnswer, documentedShape, nullInAnswer, requireTopLevel } from './observe.js';

describe('describeAnswer', () => {
  it('is the status alone for a success', () => {
    expect(describeAnswer(201, { id: 'x' })).toBe('201');
  });

  it('names the code and the body fields the messages name, once each', () => {
    const body = { code: 'INVALID_REQUEST', messages: ['body.checkout: is required', 'body.amount.value: must be number', 'body.checkout: is required', 'something else'] };
    expect(describeAnswer(400, body)).toBe('400 INVALID_REQUEST: checkout; amount.value');
    expect(describeAnswer(400, { code: 'INVALID_TRANSACTION', messages: ['no such transaction'] })).toBe('400 INVALID_TRANSACTION');
  });
});

describe('documentedShape', () => {
  const full = { title: 'Full Refund', type: 'object' };
  const partial = { title: 'Partial Refund', type: 'object' };

  it("takes the alternative titled like the example", () => {
    expect(documentedShape({ oneOf: [full, partial] }, 'Partial Refund')).toBe(partial);
  });

  it('lets any alternative match when none is titled like the example', () => {
    expect(documentedShape({ oneOf: [full, partial], description: 'd' }, 'Other')).toEqual({ anyOf: [full, partial], description: 'd' });
  });

  it('keeps a schema without alternatives', () => {
    expect(documentedShape(full, 'Full Refund')).toBe(full);
  });
});

describe('requireTopLevel', () => {
  it('requires every top-level property documented, in each alternative, and nothing nested', () => {
    const nested = { type: 'object', properties: { inner: { type: 'string' } } };
    const shape = { anyOf: [{ type: 'object', required: ['id'], properties: { id: {}, card: nested } }, { type: 'object', properties: { type: {} } }] };
    expect(requireTopLevel(shape)).toEqual({
      anyOf: [
        { type: 'object', required: ['id', 'card'], properties: { id: {}, card: nested } },
        { type: 'object', required: ['type'], properties: { type: {} } },
      ],
    });
  });

  it('leaves optional a property upstream documents as only present sometimes', () => {
    const shape = { type: 'object', properties: { id: {}, plan_id: { type: 'string', description: 'Only present when the subscription is linked to a plan.' } } };
    expect(requireTopLevel(shape)).toEqual({ ...shape, required: ['id'] });
  });

  it("leaves optional a property upstream's own answer gives as null", () => {
    const shape = { type: 'object', properties: { id: {}, document: { type: 'object' } } };
    expect(requireTopLevel(shape, nullInAnswer({ id: 'c1', document: null }))).toEqual({ ...shape, required: ['id'] });
    expect([...nullInAnswer(undefined)]).toEqual([]);
  });

  it('leaves a schema without properties alone', () => {
    expect(requireTopLevel({ type: 'array' })).toEqual({ type: 'array' });
  });
});
