import { describe, expect, it } from 'vitest';
import type { RecordedExchange, Recording } from '../harness/recording.js';
import { bodyDifferences, compareRecordings, normalizeText } from './compare.js';
import { contract } from '@switchyard/contract';
import type { ZodTypeAny } from 'zod';

const exchange = (over: Partial<RecordedExchange>): RecordedExchange => ({
  method: 'GET',
  path: '/v1/customers/5b1f0c0e-1111-4a4a-8b8b-000000000001',
  requestHeaders: { 'public-api-key': '***', 'private-secret-key': '***' },
  requestBody: undefined,
  status: 200,
  responseHeaders: {},
  responseBody: { id: '5b1f0c0e-1111-4a4a-8b8b-000000000001', created_at: '2026-01-01T00:00:00.000Z', first_name: 'Ana' },
  concurrent: false,
  ...over,
});
const recording = (exchanges: RecordedExchange[], baseUrl = 'http://a'): Recording => ({ version: 1, baseUrl, profile: 'sandbox', seed: 1, recordedAt: '2026-01-01T00:00:00.000Z', exchanges });

describe('diff', () => {
  it('normalizes ids, prefixed ids, timestamps, generated names, request ids and local ports', () => {
    expect(normalizeText('5b1f0c0e-1111-4a4a-8b8b-000000000001 ent_68vvhjvbis48bngno9n6a9pp 2026-01-01T00:00:00.000Z replay-1-mx0h1wzg-65 conformance-12 http://127.0.0.1:4312/x')).toBe(
      '<id> <id> <date-time> <unique> <request-id> <local-origin>/x',
    );
  });

  it('pairs the same request of two runs although its ids and timestamps differ, and finds no difference between equal shapes', () => {
    const other = exchange({ path: '/v1/customers/9b1f0c0e-2222-4a4a-8b8b-000000000002', responseBody: { id: '9b1f0c0e-2222-4a4a-8b8b-000000000002', created_at: '2026-05-05T10:00:00.000Z', first_name: 'Bea' } });
    const r = compareRecordings(recording([exchange({})]), recording([other]));
    expect([r.compared, r.differences, r.unmatched]).toEqual([1, [], { base: 0, compare: 0 }]);
  });

  it('reports status, error-code, one-side fields, type, enum and format differences at their JSON paths', () => {
    const schema = contract.marketplace.createRecipient.responses[201] as unknown as ZodTypeAny;
    expect(bodyDifferences({ national_entity: 'INDIVIDUAL', a: 1, list: [{ x: 'y' }] }, { national_entity: 'PERSON', a: '1', list: [{ x: 'y', z: 1 }] }, schema)).toEqual([
      { kind: 'enum', path: 'national_entity', base: 'INDIVIDUAL', compare: 'PERSON' },
      { kind: 'type', path: 'a', base: 'number', compare: 'string' },
      { kind: 'only_in_compare', path: 'list[].z', base: 'absent', compare: 'number' },
    ]);
    expect(bodyDifferences({ at: '2026-01-01T00:00:00Z', gone: 1 }, { at: '2026-01-01T00:00:00+00:00' }, undefined)).toEqual([
      { kind: 'format', path: 'at', base: 'date-time (UTC, Z)', compare: 'date-time (with an offset or none)' },
      { kind: 'only_in_base', path: 'gone', base: 'number', compare: 'absent' },
    ]);
    const r = compareRecordings(
      recording([exchange({ method: 'PUT', status: 405, responseBody: { code: 'UNSUPPORTED_METHOD', messages: ['no'] } }), exchange({ status: 400, responseBody: { code: 'INVALID_REQUEST', messages: ['x'] } })]),
      recording([exchange({ method: 'PUT', status: 404, responseBody: { code: 'NOT_FOUND', messages: ['no'] } }), exchange({ status: 400, responseBody: { code: 'INTERNAL_ERROR', messages: ['x'] } })]),
    );
    expect(r.differences.map((d) => [d.operation, d.kind, d.base, d.compare])).toEqual([
      ['getCustomer', 'error_code', 'INVALID_REQUEST', 'INTERNAL_ERROR'],
      ['PUT /v1/customers/<id>', 'status', '405', '404'],
    ]);
  });

  it('reports a difference once per operation, kind and path, however often it shows, and leaves racing requests and the control API out', () => {
    const bent = exchange({ responseBody: { id: '5b1f0c0e-1111-4a4a-8b8b-000000000001', created_at: '2026-01-01T00:00:00.000Z', first_name: 'Ana', extra: 1 } });
    const r = compareRecordings(
      recording([exchange({}), exchange({}), exchange({ concurrent: true }), exchange({ path: '/sandbox/clock' })]),
      recording([bent, bent, exchange({ concurrent: true, status: 400 }), exchange({ path: '/sandbox/clock', status: 404 })]),
    );
    expect(r.differences).toHaveLength(1);
    expect(r.differences[0]).toMatchObject({ operation: 'getCustomer', kind: 'only_in_compare', path: 'extra', occurrences: 2 });
    expect(r.racing).toBe(2);
  });
});
