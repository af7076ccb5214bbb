import { initClient, type AppRouter, type InitClientReturn } from '@ts-rest/core';
import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SECRET_KEY_HEADER } from '@switchyard/contract';
import { errorFromResponse } from './errors.js';
import { SANDBOX_BASE_URL, type ClientOptions } from './options.js';
import { createTransport } from './transport.js';

/** What `initClient` is given; its shape decides the call signature of every route. */
export interface TransportArgs {
  baseUrl: string;
  baseHeaders: {
    [PUBLIC_KEY_HEADER]: string;
    [SECRET_KEY_HEADER]: string;
    /** Filled per call by the transport; listed here so callers never have to pass it. */
    [IDEMPOTENCY_HEADER]: string;
  };
  api: ReturnType<typeof createTransport>;
}

/** ts-rest's client: every call resolves to the `{status, body, headers}` union of the route. */
export type RawClient<R extends AppRouter> = InitClientReturn<R, TransportArgs>;

type SuccessBodyOf<Res> = Res extends { status: 200 | 201 | 202 | 204; body: infer B } ? B : never;

/** The default call style: resolves to the success body, throws a typed error otherwise. */
export type ThrowingClient<C> = {
  [K in keyof C]: C[K] extends (...args: infer A) => Promise<infer Res> ? (...args: A) => Promise<SuccessBodyOf<Res>> : ThrowingClient<C[K]>;
};

/** One domain: its routes in the throwing style, and `raw` for ts-rest's response unions. */
export type DomainClient<R extends AppRouter> = ThrowingClient<RawClient<R>> & { raw: RawClient<R> };

/** `http://host:4010/` and `http://host:4010` are the same base; a trailing slash never doubles. */
export function normalizeBaseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

function throwing<C>(raw: C): ThrowingClient<C> {
  return Object.fromEntries(
    Object.entries(raw as Record<string, unknown>).map(([name, value]) => {
      if (typeof value !== 'function') return [name, throwing(value)];
      const call = async (...args: unknown[]) => {
        const res = (await (value as (...a: unknown[]) => Promise<{ status: number; body: unknown; headers: Headers }>)(...args));
        if (res.status >= 200 && res.status < 300) return res.body;
        throw errorFromResponse(res.status, res.body, headerRecord(res.headers));
      };
      return [name, call];
    }),
  ) as ThrowingClient<C>;
}

export function transportArgs(options: ClientOptions): TransportArgs {
  if (!options.publicApiKey || !options.privateSecretKey) throw new TypeError('publicApiKey and privateSecretKey are required');
  return {
    baseUrl: normalizeBaseUrl(options.baseUrl ?? SANDBOX_BASE_URL),
    baseHeaders: { [PUBLIC_KEY_HEADER]: options.publicApiKey, [SECRET_KEY_HEADER]: options.privateSecretKey, [IDEMPOTENCY_HEADER]: '' },
    api: createTransport(options),
  };
}

/** A client for one router (one domain), sharing `args` when several domains are built together. */
export function domainClient<R extends AppRouter>(router: R, args: TransportArgs): DomainClient<R> {
  const raw = initClient(router, args) as RawClient<R>;
  return Object.assign(throwing(raw), { raw });
}
