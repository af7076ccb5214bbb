import {
  ERROR_CODES,
  MAX_FAULT_LATENCY_MS,
  MAX_FAULT_RETRY_AFTER_SECONDS,
  SANDBOX_FAULT_HEADER,
  SANDBOX_FAULT_HEADER_FORMS,
  STATUS_OF,
  type ErrorCode,
  type FaultEffect,
  type FaultMatch,
  type FaultRule,
  DEFAULT_FAULT_STALL_MS,
} from '@switchyard/contract';
import { nextRandom } from '../domain/seeded-random.js';

/**
 * Fault injection's rules, without HTTP or storage (docs/faults.md): which rule a request
 * matches, whether it fires (counters, a seeded PRNG, a token bucket on an injected clock), and
 * what the fault is. The faults middleware applies the result. The rules live in their own folder,
 * not in domain/: a fault is an HTTP answer (a status and its code, a reset, a dropped response),
 * and domain code never knows about faults (docs/architecture.md).
 */

/** A token bucket's state: tokens left when last looked at, and when (wall-clock ms). */
export interface Bucket {
  tokens: number;
  at_ms: number;
}

/** A rule as stored: its public view plus the state that makes it reproducible across replicas. */
export interface FaultRuleRecord extends FaultRule {
  /** The rule's PRNG state (mulberry32), advanced on every draw. */
  rng_state: number;
  /** Token buckets of a rate_limit rule, by operationId (`per_route`) or `*`. */
  buckets: Record<string, Bucket>;
}

/** What the faults middleware does to one request. */
export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'status'; status: number; code: ErrorCode; messages: string[]; retryAfterSeconds?: number }
  | { kind: 'reset' }
  | { kind: 'stall'; ms: number }
  | { kind: 'commit_then_drop' }
  | { kind: 'rate_limited'; retryAfterSeconds: number };

/** The request as a rule sees it. */
export interface FaultRequest {
  operationId: string;
  method: string;
  path: string;
  header(name: string): string | undefined;
}

/** The result of the rules for one request: the fault, if one fired, the rules to save, rate-limit headers. */
export interface FaultDecision {
  fired?: { fault: Fault; ruleId: string };
  changed: FaultRuleRecord[];
  /** Headers of the rate-limit bucket the request was counted in (on allowed and refused requests). */
  headers: Record<string, string>;
}

/** A draw function over a mutable state box, for samplers that need several numbers. */
function drawer(box: { state: number }): () => number {
  return () => {
    const { value, state } = nextRandom(box.state);
    box.state = state;
    return value;
  };
}

/** z of the 99th percentile of the standard normal distribution. */
const Z_P99 = 2.3263478740408408;

/** A latency in ms: fixed, uniform in [min, max], or log-normal with the given median and p99, clipped to the cap. */
export function sampleLatency(effect: Extract<FaultEffect, { type: 'latency' }>, random: () => number): number {
  if (effect.ms !== undefined) return effect.ms;
  if (effect.min_ms !== undefined && effect.max_ms !== undefined) return Math.round(effect.min_ms + random() * (effect.max_ms - effect.min_ms));
  const median = effect.median_ms ?? 1;
  const sigma = Math.log((effect.p99_ms ?? median) / median) / Z_P99;
  // Box-Muller: 1 - u keeps the logarithm's argument in (0, 1].
  const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.min(MAX_FAULT_LATENCY_MS, Math.round(median * Math.exp(sigma * z)));
}

/** The bucket refilled up to now, then one token taken if there is one. */
export function takeToken(bucket: Bucket | undefined, capacity: number, refillPerSecond: number, nowMs: number): { allowed: boolean; bucket: Bucket } {
  const elapsedMs = bucket ? Math.max(0, nowMs - bucket.at_ms) : 0;
  const tokens = bucket ? Math.min(capacity, bucket.tokens + (elapsedMs / 1000) * refillPerSecond) : capacity;
  const allowed = tokens >= 1;
  return { allowed, bucket: { tokens: allowed ? tokens - 1 : tokens, at_ms: Math.max(nowMs, bucket?.at_ms ?? nowMs) } };
}

/**
 * The headers of a bucket after a request (docs/faults.md, "Rate limits"): draft-ietf-httpapi-ratelimit-headers'
 * three fields, and Retry-After (RFC 9110) when the request was refused.
 */
export function rateLimitHeaders(bucket: Bucket, capacity: number, refillPerSecond: number, refused: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-limit': String(capacity),
    'ratelimit-remaining': String(Math.floor(bucket.tokens)),
    'ratelimit-reset': String(Math.ceil((capacity - bucket.tokens) / refillPerSecond)),
  };
  if (refused) headers['retry-after'] = String(Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerSecond)));
  return headers;
}

/** Counts the characters a match looked at: what makes its cost measurable, whatever the machine. */
export interface MatchMeter {
  steps: number;
}

/**
 * Where `piece` first occurs in `text` within [from, to), or -1: Knuth-Morris-Pratt, so the text
 * is read once (at most twice the characters between `from` and the match), however the piece
 * repeats itself.
 */
function indexWithin(text: string, piece: string, from: number, to: number, meter: MatchMeter): number {
  if (piece.length === 0) return from;
  const fallback = new Array<number>(piece.length).fill(0);
  for (let i = 1, k = 0; i < piece.length; i += 1) {
    while (k > 0 && piece[i] !== piece[k]) k = fallback[k - 1] as number;
    if (piece[i] === piece[k]) k += 1;
    fallback[i] = k;
  }
  meter.steps += piece.length;
  for (let i = from, k = 0; i < to; i += 1) {
    while (k > 0 && text[i] !== piece[k]) {
      k = fallback[k - 1] as number;
      meter.steps += 1;
    }
    meter.steps += 1;
    if (text[i] === piece[k]) k += 1;
    if (k === piece.length) return i - piece.length + 1;
  }
  return -1;
}

/**
 * One path segment against a pattern segment whose `*` matches any run of characters, in time
 * linear in both: the text before the first `*` is a prefix, the text after the last a suffix, and
 * each piece between is found at its leftmost place after the previous one (leftmost is always
 * right when `*` is the only wildcard). No backtracking, so no pattern can make it slow.
 */
function segmentMatches(pattern: string, segment: string, meter: MatchMeter): boolean {
  const pieces = pattern.split('*');
  meter.steps += pattern.length;
  if (pieces.length === 1) {
    meter.steps += segment.length;
    return pattern === segment;
  }
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  if (first.length + last.length > segment.length) return false;
  meter.steps += first.length + last.length;
  if (!segment.startsWith(first) || !segment.endsWith(last)) return false;
  let at = first.length;
  const end = segment.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = indexWithin(segment, piece, at, end, meter);
    if (found < 0) return false;
    at = found + piece.length;
  }
  return true;
}

/**
 * `*` matches within one path segment, a `**` segment any number of segments (none included);
 * everything else literally, and a trailing `/` on the path is ignored. Matched segment by
 * segment: a rule's pattern runs against every request of its merchant, so it must not be able to
 * stall the server. A pattern is at most 200 characters, so at most 100 segments, and each pattern
 * segment reads the path once at most: the time is linear in the path's length.
 */
export function pathMatches(pattern: string, path: string, meter: MatchMeter = { steps: 0 }): boolean {
  const patternSegments = pattern.split('/').map((segment) => (segment === '**' ? segment : segment.replace(/\*+/g, '*')));
  const pathSegments = (path.length > 1 ? path.replace(/\/$/, '') : path).split('/');
  // reached[j]: the pattern's segments so far match the path's first j segments.
  let reached = pathSegments.map((_, j) => j === 0).concat(false);
  for (const segment of patternSegments) {
    const next = reached.map(() => false);
    meter.steps += reached.length;
    if (segment === '**') {
      let any = false;
      for (let j = 0; j < reached.length; j += 1) {
        any ||= reached[j] === true;
        next[j] = any;
      }
    } else {
      for (let j = 0; j < pathSegments.length; j += 1) if (reached[j] && segmentMatches(segment, pathSegments[j] as string, meter)) next[j + 1] = true;
    }
    reached = next;
  }
  return reached[pathSegments.length] === true;
}

export function ruleMatches(match: FaultMatch, request: FaultRequest): boolean {
  if (match.operation_id !== undefined && match.operation_id !== request.operationId) return false;
  if (match.method !== undefined && match.method !== request.method) return false;
  if (match.path !== undefined && !pathMatches(match.path, request.path)) return false;
  if (match.header !== undefined && request.header(match.header.name) !== match.header.value) return false;
  return true;
}

// The codes a fault's status gets by default: the request, auth and server families' (the others
// name business rules a fault has not broken), then TOO_MANY_REQUESTS for 429.
const DEFAULT_CODES: readonly ErrorCode[] = [...ERROR_CODES.request, ...ERROR_CODES.auth, ...ERROR_CODES.server, 'TOO_MANY_REQUESTS'];

/** The API's code for an injected status: the first of DEFAULT_CODES with that status, else INTERNAL_ERROR or INVALID_REQUEST. */
export function defaultCodeOf(status: number): ErrorCode {
  return DEFAULT_CODES.find((code) => STATUS_OF[code] === status) ?? (status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_REQUEST');
}

const injectedMessage = (status: number, source: string) => `sandbox fault: status ${status} injected by ${source}`;

/** The fault of an effect that is not a rate limit (that one is decided by its bucket). */
function faultOf(effect: Exclude<FaultEffect, { type: 'rate_limit' }>, ruleId: string, random: () => number): Fault {
  switch (effect.type) {
    case 'latency':
      return { kind: 'latency', ms: sampleLatency(effect, random) };
    case 'status':
      return {
        kind: 'status',
        status: effect.status,
        code: effect.code ?? defaultCodeOf(effect.status),
        messages: effect.messages ?? [injectedMessage(effect.status, `fault rule ${ruleId}`)],
        ...(effect.retry_after !== undefined ? { retryAfterSeconds: effect.retry_after } : {}),
      };
    case 'stall':
      return { kind: 'stall', ms: effect.ms ?? DEFAULT_FAULT_STALL_MS };
    case 'reset':
    case 'commit_then_drop':
      return { kind: effect.type };
  }
}

/**
 * Runs the merchant's rules, oldest first, for one request. A matching rule counts the request;
 * it fires unless its first `after` matches are not yet past, its `times` are spent, or its
 * seeded draw misses `probability`. The first rule that fires decides the request's fault and
 * later rules are not consulted; a rate_limit rule fires only when its bucket is empty (an
 * allowed request goes on to the next rules).
 */
export function decideFault(rules: readonly FaultRuleRecord[], request: FaultRequest, nowMs: number): FaultDecision {
  const changed: FaultRuleRecord[] = [];
  let headers: Record<string, string> = {};
  for (const rule of rules) {
    if (!ruleMatches(rule.match, request)) continue;
    const box = { state: rule.rng_state };
    const random = drawer(box);
    const matched = rule.matched + 1;
    const eligible = matched > rule.after && (rule.times === null || rule.fired < rule.times);
    const drawn = eligible && (rule.probability >= 1 || random() < rule.probability);
    if (!drawn) {
      changed.push({ ...rule, matched, rng_state: box.state });
      continue;
    }
    const { effect } = rule;
    if (effect.type === 'rate_limit') {
      const key = effect.per_route ? request.operationId : '*';
      const { allowed, bucket } = takeToken(rule.buckets[key], effect.capacity, effect.refill_per_second, nowMs);
      headers = rateLimitHeaders(bucket, effect.capacity, effect.refill_per_second, !allowed);
      const updated = { ...rule, matched, fired: rule.fired + (allowed ? 0 : 1), rng_state: box.state, buckets: { ...rule.buckets, [key]: bucket } };
      changed.push(updated);
      if (allowed) continue;
      return { fired: { fault: { kind: 'rate_limited', retryAfterSeconds: Number(headers['retry-after']) }, ruleId: rule.id }, changed, headers };
    }
    const fault = faultOf(effect, rule.id, random);
    changed.push({ ...rule, matched, fired: rule.fired + 1, rng_state: box.state });
    return { fired: { fault, ruleId: rule.id }, changed, headers };
  }
  return { changed, headers };
}

/** The fault as the journal shows it: `status=500`, `latency=1500ms`, `commit-then-drop`, ... */
export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case 'latency':
      return `latency=${fault.ms}ms`;
    case 'status':
      return `status=${fault.status}`;
    case 'stall':
      return `stall=${fault.ms}ms`;
    case 'rate_limited':
      return 'rate-limit';
    case 'reset':
      return 'reset';
    case 'commit_then_drop':
      return 'commit-then-drop';
  }
}

const HEADER_STATUS = /^status=(\d{3})(?:;retry-after=(\d{1,5}))?$/;
const HEADER_LATENCY = /^latency=(\d{1,6})ms$/;

/**
 * The fault an `x-sandbox-fault` header asks for, or why the value is not one. The forms are
 * fixed and documented in docs/faults.md: commit-then-drop, reset,
 * status=NNN[;retry-after=S], latency=NNNms.
 */
export function parseFaultHeader(raw: string): { fault: Fault } | { error: string } {
  const value = raw.trim().toLowerCase();
  if (value === 'commit-then-drop') return { fault: { kind: 'commit_then_drop' } };
  if (value === 'reset') return { fault: { kind: 'reset' } };
  const status = HEADER_STATUS.exec(value);
  if (status) {
    const code = Number(status[1]);
    if (code < 400 || code > 599) return { error: `${SANDBOX_FAULT_HEADER}: status must be from 400 to 599, got ${code}` };
    const retryAfter = status[2] === undefined ? undefined : Number(status[2]);
    if (retryAfter !== undefined && retryAfter > MAX_FAULT_RETRY_AFTER_SECONDS) {
      return { error: `${SANDBOX_FAULT_HEADER}: retry-after must be at most ${MAX_FAULT_RETRY_AFTER_SECONDS} seconds` };
    }
    const messages = [injectedMessage(code, `the ${SANDBOX_FAULT_HEADER} header`)];
    return { fault: { kind: 'status', status: code, code: defaultCodeOf(code), messages, ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}) } };
  }
  const latency = HEADER_LATENCY.exec(value);
  if (latency) {
    const ms = Number(latency[1]);
    if (ms > MAX_FAULT_LATENCY_MS) return { error: `${SANDBOX_FAULT_HEADER}: latency must be at most ${MAX_FAULT_LATENCY_MS}ms` };
    return { fault: { kind: 'latency', ms } };
  }
  return { error: `${SANDBOX_FAULT_HEADER} must be one of ${SANDBOX_FAULT_HEADER_FORMS.join(', ')}` };
}
