import { PUBLIC_KEY_HEADER, SECRET_KEY_HEADER } from '@switchyard/contract';
import { Unavailable } from './unavailable.js';

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | undefined;
  status: number;
  contentType: string | null;
  responseText: string;
  responseBody: unknown;
  /** Violations a validating proxy in front of the server reported (Prism's `sl-violations`). */
  violations: string | null;
  /** The response's request id header, if any. */
  requestId: string | null;
  /** Every response header, by lower-case name. */
  responseHeaders: Record<string, string>;
  /** From sending the request to reading the whole response. */
  durationMs: number;
  /** Sent side by side with duplicates of itself on purpose: which one wins is a race. */
  concurrent?: boolean;
}

/** The request id header: every response carries one, the caller's own when it sent one. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** The header of an idempotent replay (`idempotent-replayed: true`), as upstream and the sandbox answer it (docs/sandbox-testing.md, "Idempotency"). */
export const REPLAYED_HEADER = 'idempotent-replayed';

const SECRET_HEADERS = new Set([PUBLIC_KEY_HEADER, SECRET_KEY_HEADER]);

/** Secrets replaced by `***` (both API keys), for reports and curl commands. */
export function maskedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, SECRET_HEADERS.has(k.toLowerCase()) ? '***' : v]));
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A command that reproduces the request (with the secrets masked: put yours back). */
export function curlOf(e: Exchange): string {
  const headers = Object.entries(maskedHeaders(e.requestHeaders)).map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`);
  return ['curl -i', `-X ${e.method}`, shellQuote(e.url), ...headers, ...(e.requestBody ? [`--data ${shellQuote(e.requestBody)}`] : [])].join(' ');
}

export function describeExchange(e: Exchange): string {
  return [
    `request:  ${e.method} ${e.url}`,
    `headers:  ${JSON.stringify(maskedHeaders(e.requestHeaders))}`,
    ...(e.requestBody ? [`body:     ${e.requestBody.length > 2000 ? `${e.requestBody.slice(0, 2000)}…` : e.requestBody}`] : []),
    `response: ${e.status} ${e.contentType ?? ''}`,
    `          ${e.responseText.length > 2000 ? `${e.responseText.slice(0, 2000)}…` : e.responseText}`,
    `reproduce: ${curlOf(e)}`,
  ].join('\n');
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const h = new Headers(init?.headers);
  const out: Record<string, string> = {};
  h.forEach((v, k) => (out[k] = v));
  return out;
}

/**
 * A fetch that records every exchange and keeps to the request budget (staging: bounded count
 * and rate).
 */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  private sent = 0;
  /** Why no more request may be sent, once the budget is used up. */
  budgetUsedUp: string | undefined;
  /** Whether the requests sent now race on purpose (Recorder.racing). */
  private racers = 0;
  private nextSlotMs = 0;

  constructor(private readonly budget: { maxRequests: number; ratePerSecond: number }) {}

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => (await this.exchange(input, init)).response;

  /** Sends a request and returns its response with the exchange recorded for it (safe with requests in flight). */
  async exchange(input: RequestInfo | URL, init?: RequestInit): Promise<{ response: Response; exchange: Exchange }> {
    // A check left without requests is skipped, saying so: the budget protects a shared staging.
    if (this.sent >= this.budget.maxRequests) {
      this.budgetUsedUp = `the request budget of ${this.budget.maxRequests} (--max-requests) is used up`;
      throw new Unavailable(this.budgetUsedUp);
    }
    this.sent += 1;
    const interval = 1000 / this.budget.ratePerSecond;
    const now = Date.now();
    const wait = Math.max(0, this.nextSlotMs - now);
    this.nextSlotMs = Math.max(now, this.nextSlotMs) + interval;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    // Every second request carries a request id of its own, which the answer must echo; the others must get one made up.
    const headers = new Headers(init?.headers);
    if (this.sent % 2 === 0 && !headers.has(REQUEST_ID_HEADER)) headers.set(REQUEST_ID_HEADER, `conformance-${this.sent}`);
    const sentInit = { ...init, headers };
    const started = performance.now();
    const response = await fetch(input, sentInit);
    const text = await response.clone().text();
    const durationMs = performance.now() - started;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    const exchange: Exchange = {
      method: (init?.method ?? 'GET').toUpperCase(),
      url,
      requestHeaders: headersOf(sentInit),
      requestBody: typeof init?.body === 'string' ? init.body : undefined,
      status: response.status,
      contentType: response.headers.get('content-type'),
      responseText: text,
      responseBody: parsed,
      violations: response.headers.get('sl-violations'),
      requestId: response.headers.get(REQUEST_ID_HEADER),
      responseHeaders: headersOf({ headers: response.headers }),
      durationMs,
      ...(this.racers > 0 ? { concurrent: true } : {}),
    };
    this.exchanges.push(exchange);
    return { response, exchange };
  }

  /** Runs `fn`, whose requests race each other on purpose (in-flight duplicates), marking their exchanges so. */
  async racing<T>(fn: () => Promise<T>): Promise<T> {
    this.racers += 1;
    try {
      return await fn();
    } finally {
      this.racers -= 1;
    }
  }

  /** Exchanges recorded since `mark` (an index from `exchanges.length`). */
  since(mark: number): Exchange[] {
    return this.exchanges.slice(mark);
  }
}
