import { describe, expect, it } from 'vitest';
import { documentedStatus, requestExamples, successStatuses, type UpstreamOperation } from './upstream.js';

const operation = (responses: Record<string, unknown>, requestBody?: unknown): UpstreamOperation => ({
  file: 'things/create-thing.json',
  method: 'POST',
  path: '/things',
  doc: { components: { responses: { Created: { description: 'Created', content: { 'application/json': { examples: { Second: {} } } } } } } },
  operation: { responses, requestBody },
});

describe('upstream operations', () => {
  it('takes named examples, or a lone example named after the method', () => {
    const named = operation({}, { content: { 'application/json': { examples: { First: { value: { a: 1 } } } } } });
    expect(requestExamples(named).map((e) => [e.id, e.value])).toEqual([['things/create-thing.json#First', { a: 1 }]]);
    const lone = operation({}, { content: { 'application/json': { example: { b: 2 } } } });
    expect(requestExamples(lone).map((e) => e.id)).toEqual(['things/create-thing.json#POST example']);
  });

  it('ignores a success code that documents nothing', () => {
    expect(successStatuses(operation({ 200: {}, 201: { description: 'Created' }, 400: { description: 'Bad' } }))).toEqual([201]);
  });

  it("pairs an example with the success response holding an example of its name, else the lowest", () => {
    const op = operation({ 200: { description: 'OK' }, 201: { $ref: '#/components/responses/Created' } }, { content: { 'application/json': { examples: { First: { value: {} }, Second: { value: {} } } } } });
    expect(requestExamples(op).map(documentedStatus)).toEqual([200, 201]);
  });
});
