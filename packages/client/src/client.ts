import { initClient, type AppRouter } from '@ts-rest/core';
import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SECRET_KEY_HEADER } from '@switchyard/contract';
import { errorFromResponse } from './errors.js';
import { headerRecord } from './headers.js';
import { normalizeBaseUrl, SANDBOX_BASE_URL, type ClientOptions } from './options.js';
import type { DomainClient, RawClient, RouteTypes, ThrowingClient } from './route-client.js';
import { createTransport } from './transport.js';

/**
 * What `initClient` is given; its shape decides the call signature of every route. Internal: it
 * names the contract's header constants, so no public declaration may refer to it.
 */
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

/**
 * A client for one router (one domain), sharing `args` when several domains are built together.
 * `Routes` is the router's generated route table: `route-types.test-d.ts` proves it types exactly
 * what ts-rest's `initClient` returns for that router.
 */
export function domainClient<Routes extends { [K in keyof Routes]: RouteTypes }>(router: AppRouter, args: TransportArgs): DomainClient<Routes> {
  const raw = initClient(router, args) as unknown as RawClient<Routes>;
  return Object.assign(throwing(raw), { raw });
}
