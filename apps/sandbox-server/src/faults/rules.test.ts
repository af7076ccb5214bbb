import { describe, expect, it } from 'vitest';
import { MAX_FAULT_LATENCY_MS, type FaultEffect } from '@switchyard/contract';
import { decideFault, parseFaultHeader, pathMatches, rateLimitHeaders, sampleLatency, takeToken, type FaultRequest, type FaultRuleRecord, type MatchMeter } from './rules.js';
import { nextRandom } from '../domain/seeded-random.js';

const request = (over: Partial<FaultRequest> = {}): FaultRequest => ({
  operationId: 'createCustomer',
  method: 'POST',
  path: '/v1/customers',
  header: () => undefined,
  ...over,
});

const rule = (over: Partial<FaultRuleRecord> & { effect?: FaultEffect } = {}): FaultRuleRecord => ({
  id: 'r1',
  match: { operation_id: 'createCustomer' },
  effect: { type: 'status', status: 500 },
  probability: 1,
  seed: 0,
  times: null,
  after: 0,
  matched: 0,
  fired: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  rng_state: 0,
  buckets: {},
  ...over,
});

/** Runs `n` requests through the rules, saving what each decision changed, as the store would. */
function run(rules: FaultRuleRecord[], n: number, req = request(), nowMs = () => 0) {
  let current = rules;
  const fired: (string | undefined)[] = [];
  for (let i = 0; i < n; i += 1) {
    const decision = decideFault(current, req, nowMs());
    current = current.map((r) => decision.changed.find((c) => c.id === r.id) ?? r);
    fired.push(decision.fired?.fault.kind);
  }
  return { rules: current, fired };
}

describe('decideFault', () => {
  it('fires the minimal rule on every matching request, with the API code of its status', () => {
    const decision = decideFault([rule()], request(), 0);
    expect(decision.fired).toEqual({ ruleId: 'r1', fault: { kind: 'status', status: 500, code: 'INTERNAL_ERROR', messages: ['sandbox fault: status 500 injected by fault rule r1'] } });
    expect(decideFault([rule()], request({ operationId: 'getCustomer', method: 'GET' }), 0)).toEqual({ changed: [], headers: {} });
  });

  it('lets the first `after` matches through, then fires `times` times, counting every match', () => {
    const { rules, fired } = run([rule({ after: 2, times: 2 })], 6);
    expect(fired).toEqual([undefined, undefined, 'status', 'status', undefined, undefined]);
    expect(rules[0]).toMatchObject({ matched: 6, fired: 2 });
  });

  it('draws from the seeded PRNG: the same seed faults the same requests, another seed others', () => {
    const pattern = (seed: number) => run([rule({ probability: 0.5, seed, rng_state: seed })], 40).fired.join();
    expect(pattern(7)).toBe(pattern(7));
    expect(pattern(7)).not.toBe(pattern(8));
    const hits = run([rule({ probability: 0.5, seed: 7, rng_state: 7 })], 400).rules[0]?.fired ?? 0;
    expect(hits).toBeGreaterThan(150);
    expect(hits).toBeLessThan(250);
  });

  it('decides by the first rule that fires; a rate limit with tokens left passes on to the next rules', () => {
    const limit = rule({ id: 'limit', match: {}, effect: { type: 'rate_limit', capacity: 1, refill_per_second: 1 } });
    const status = rule({ id: 'status', effect: { type: 'status', status: 503, retry_after: 2 } });
    const first = decideFault([limit, status], request(), 0);
    expect(first.fired).toMatchObject({ ruleId: 'status', fault: { kind: 'status', status: 503, code: 'INTERNAL_ERROR', retryAfterSeconds: 2 } });
    expect(first.headers).toEqual({ 'ratelimit-limit': '1', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' });
    const saved = first.changed.find((r) => r.id === 'limit') as FaultRuleRecord;
    const second = decideFault([saved, status], request(), 400);
    expect(second.fired).toEqual({ ruleId: 'limit', fault: { kind: 'rate_limited', retryAfterSeconds: 1 } });
    expect(second.changed.map((r) => r.id)).toEqual(['limit']);
  });

  it('keeps one bucket per operationId with per_route', () => {
    const limit = rule({ match: {}, effect: { type: 'rate_limit', capacity: 1, refill_per_second: 0.01, per_route: true } });
    const { rules } = run([limit], 1);
    const other = decideFault(rules, request({ operationId: 'getCustomer', method: 'GET' }), 0);
    expect(other.fired).toBeUndefined();
    expect(decideFault(rules, request(), 0).fired?.fault).toEqual({ kind: 'rate_limited', retryAfterSeconds: 100 });
  });

  it('matches method, path patterns and a header value', () => {
    const byHeader = rule({ match: { method: 'POST', path: '/v1/*', header: { name: 'x-test', value: 'a' } } });
    expect(decideFault([byHeader], request({ header: (n) => (n === 'x-test' ? 'a' : undefined) }), 0).fired).toBeDefined();
    expect(decideFault([byHeader], request({ header: () => 'b' }), 0).fired).toBeUndefined();
  });
});

describe('pathMatches', () => {
  it('takes * within a segment and ** across segments, everything else literally', () => {
    expect(pathMatches('/v1/payments/*', '/v1/payments/abc')).toBe(true);
    expect(pathMatches('/v1/payments/*', '/v1/payments/abc/refund')).toBe(false);
    expect(pathMatches('/v1/payments/**', '/v1/payments/abc/refund')).toBe(true);
    expect(pathMatches('/v1/pay.ments', '/v1/payXments')).toBe(false);
    expect(pathMatches('/v1/payments/*/refund', '/v1/payments/abc/refund/')).toBe(true);
    expect(pathMatches('/v1/**/refund', '/v1/payments/abc/refund')).toBe(true);
    expect(pathMatches('/v1/**/refund', '/v1/payments/abc/capture')).toBe(false);
    expect(pathMatches('/v1/cust*rs/c*', '/v1/customers/cus_1')).toBe(true);
  });

  it('agrees with a regular expression of the same glob on every small pattern and path (an exhaustive table)', () => {
    const glob = (pattern: string) => new RegExp(`^${pattern.replace(/\*/g, '[^/]*')}$`);
    const patterns = ['*', 'a*', '*a', 'a*b', '*ab*', 'a*a*a', '*a*b*a*', 'ab', 'aa*aa', '**a', 'b*'];
    const segments = ['a', 'b', 'ab', 'ba', 'aab', 'abab', 'aaaa', 'abba', 'aabaa', 'babab', 'aaabaaa'];
    for (const pattern of patterns) {
      for (const segment of segments) {
        expect(pathMatches(`/v1/${pattern}`, `/v1/${segment}`), `${pattern} against ${segment}`).toBe(glob(pattern).test(segment));
      }
    }
  });

  it('reads an adversarial path a bounded number of times per character (linear, whatever the pattern)', () => {
    // The attack: a star, then a long run of one letter and another letter, against a long run of the first.
    const pattern = `/v1/customers/*${'a'.repeat(184)}b`;
    for (const length of [1_000, 15_000]) {
      const path = `/v1/customers/${'a'.repeat(length)}`;
      const meter: MatchMeter = { steps: 0 };
      expect(pathMatches(pattern, path, meter)).toBe(false);
      expect(meter.steps).toBeLessThanOrEqual(4 * (path.length + pattern.length));
    }
    const stars = `/v1/customers/${'*a'.repeat(90)}b`;
    const meter: MatchMeter = { steps: 0 };
    const path = `/v1/customers/${'a'.repeat(15_000)}`;
    expect(pathMatches(stars, path, meter)).toBe(false);
    expect(meter.steps).toBeLessThanOrEqual(4 * (path.length + stars.length));
  });

  it('matches 50 adversarial rules against a 15,000-character segment well within one event-loop turn', () => {
    const pattern = `/v1/customers/*${'a'.repeat(184)}b`;
    const path = `/v1/customers/${'a'.repeat(15_000)}`;
    const started = performance.now();
    for (let i = 0; i < 50; i += 1) expect(pathMatches(pattern, path)).toBe(false);
    const ms = performance.now() - started;
    console.info(`50 adversarial rules against a 15,000-character segment: ${ms.toFixed(1)} ms`);
    // The bound is generous (a loaded CI machine); the backtracking walk took 4 s here.
    expect(ms).toBeLessThan(1_000);
  });

  it('answers a pattern built to backtrack without stalling (it runs on every request of its merchant)', () => {
    // As a regular expression this pattern took over 20 s against this path; segment by segment it is immediate.
    expect(pathMatches('/v1/**a**a**a**a**a**a**a**ab', `/v1/${'a'.repeat(60)}`)).toBe(false);
    expect(pathMatches('/**/**/**/**/**/**/**/**/x', `/${'a/'.repeat(100)}y`)).toBe(false);
  });
});

describe('token bucket', () => {
  it('refills at its rate up to its capacity and says when to come back', () => {
    let bucket = takeToken(undefined, 2, 0.5, 0).bucket;
    bucket = takeToken(bucket, 2, 0.5, 0).bucket;
    const refused = takeToken(bucket, 2, 0.5, 1000);
    expect(refused.allowed).toBe(false);
    expect(rateLimitHeaders(refused.bucket, 2, 0.5, true)).toEqual({ 'ratelimit-limit': '2', 'ratelimit-remaining': '0', 'ratelimit-reset': '3', 'retry-after': '1' });
    expect(takeToken(refused.bucket, 2, 0.5, 2000).allowed).toBe(true);
    expect(takeToken(bucket, 2, 0.5, 3_600_000).bucket.tokens).toBe(1);
  });
});

describe('sampleLatency', () => {
  const random = (() => {
    let state = 1;
    return () => {
      const next = nextRandom(state);
      state = next.state;
      return next.value;
    };
  })();

  it('samples fixed, uniform and log-normal latencies, the log-normal one near its median and p99', () => {
    expect(sampleLatency({ type: 'latency', ms: 1500 }, random)).toBe(1500);
    const uniform = Array.from({ length: 200 }, () => sampleLatency({ type: 'latency', min_ms: 100, max_ms: 200 }, random));
    expect(Math.min(...uniform)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...uniform)).toBeLessThanOrEqual(200);
    const samples = Array.from({ length: 4000 }, () => sampleLatency({ type: 'latency', median_ms: 100, p99_ms: 1000 }, random)).sort((a, b) => a - b);
    expect(samples[2000]).toBeGreaterThan(85);
    expect(samples[2000]).toBeLessThan(115);
    expect(samples[3960]).toBeGreaterThan(700);
    expect(samples[3960]).toBeLessThan(1400);
    expect(sampleLatency({ type: 'latency', median_ms: MAX_FAULT_LATENCY_MS / 2, p99_ms: MAX_FAULT_LATENCY_MS }, () => 0.999_999)).toBe(MAX_FAULT_LATENCY_MS);
  });
});

describe('parseFaultHeader', () => {
  it('reads the four fixed forms', () => {
    expect(parseFaultHeader('commit-then-drop')).toEqual({ fault: { kind: 'commit_then_drop' } });
    expect(parseFaultHeader('reset')).toEqual({ fault: { kind: 'reset' } });
    expect(parseFaultHeader('status=503;retry-after=2')).toMatchObject({ fault: { kind: 'status', status: 503, code: 'INTERNAL_ERROR', retryAfterSeconds: 2 } });
    expect(parseFaultHeader('status=429')).toMatchObject({ fault: { kind: 'status', status: 429, code: 'TOO_MANY_REQUESTS' } });
    expect(parseFaultHeader('latency=1500ms')).toEqual({ fault: { kind: 'latency', ms: 1500 } });
  });

  it.each(['status=200', 'latency=1500', 'latency=999999ms', 'drop', 'status=503;retry-after=99999'])('refuses %s, naming the header', (value) => {
    const parsed = parseFaultHeader(value);
    expect(parsed).toEqual({ error: expect.stringContaining('x-sandbox-fault') });
  });
});
