import { describe, expect, it } from 'vitest';
import { buildReport, verdictOf, type TestOutcome } from './report.js';

const meta = { baseUrl: 'http://s', profile: 'sandbox', only: null, durationMs: 1, includeSandbox: false, excluded: [], errors: [] };
const test = (outcome: TestOutcome['outcome'], message: string | null = null): TestOutcome => ({ operationId: 'getCustomer', check: 'positive_data_acceptance', detail: null, outcome, message, durationMs: 1 });

describe('the exit code', () => {
  it('is 0 when every check that ran passed, skips included', () => {
    expect(verdictOf(buildReport([test('pass'), test('skip', 'needs the fixture "customer_id"')], meta))).toEqual({ code: 0 });
  });

  it('is 1 when a check failed', () => {
    expect(verdictOf(buildReport([test('pass'), test('fail', 'boom')], meta))).toEqual({ code: 1 });
  });

  it('is 2 when no check ran, saying why', () => {
    expect(verdictOf(buildReport([], meta))).toEqual({ code: 2, message: 'no check ran: the suite has no checks' });
    expect(verdictOf(buildReport([], { ...meta, only: 'nope' }))).toEqual({ code: 2, message: 'no check ran: --only nope matches no domain, check or operationId' });
    expect(verdictOf(buildReport([test('skip', 'needs the fixture "customer_id"\nmore')], meta))).toEqual({
      code: 2,
      message: 'no check ran: every check (1) was skipped, e.g. getCustomer › positive_data_acceptance: needs the fixture "customer_id"',
    });
  });

  it('is 2 on an error outside any check, even when checks passed or failed', () => {
    expect(verdictOf(buildReport([test('pass'), test('fail', 'x')], { ...meta, errors: ['afterAll: boom\nstack'] }))).toEqual({ code: 2, message: 'the suite stopped outside any check: afterAll: boom' });
  });
});
