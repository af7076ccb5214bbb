/**
 * The client's public call signatures, over the generated route tables (`./types/*.ts`) instead
 * of ts-rest's inference over the contract, so that a consumer's type-check never loads the
 * contract, zod or ts-rest declarations. Each type mirrors the ts-rest 3.52 type named in its
 * comment; `route-types.test-d.ts` proves the result equals ts-rest's client, route by route.
 */
import type { CallOptions } from './options.js';

/** One route as generated: what a call takes (`params`, `query`, `body`, `headers`) and the body of each status. */
export interface RouteTypes {
  request: object;
  responses: object;
}

/** ts-rest's `FetchOptions`: the platform's `RequestInit` without what the client sets itself. */
type FetchOptions = typeof globalThis extends { Request: infer T extends typeof Request } ? Omit<NonNullable<ConstructorParameters<T>[1]>, 'method' | 'headers' | 'body'> : never;

/** ts-rest's `Prettify`: one flat object type for editors and error messages. */
type Prettify<T> = { [K in keyof T]: T[K] } & {};

/**
 * ts-rest's deprecated top-level `cache` and `next`: each is a copy of the `FetchOptions` member
 * of that name, present only on a platform whose `RequestInit` has it (Next.js adds `next`).
 * @deprecated Use `fetchOptions` instead.
 */
type FetchOptionShortcut<K extends string, O = FetchOptions> = K extends keyof O ? { [P in K]?: O[K] } : unknown;

type RouteHeaders<R extends RouteTypes> = R['request'] extends { headers?: infer H } ? NonNullable<H> : never;

/** The per-call arguments every route takes besides its own (ts-rest's `ClientInferRequest`, plus the client's `CallOptions`). */
interface CommonCallArgs<H> extends CallOptions {
  /** Headers beyond the route's own; a route header goes in `headers` instead. */
  extraHeaders?: [H] extends [never] ? Record<string, string | undefined> : { [K in keyof H]?: never } & Record<string, string | undefined>;
  fetchOptions?: FetchOptions;
  overrideClientOptions?: Partial<{ baseUrl: string; credentials?: FetchOptions['credentials']; jsonQuery?: boolean; validateResponse?: boolean }>;
}

/** What one call of a route takes. */
export type CallArgs<R extends RouteTypes> = Prettify<R['request'] & CommonCallArgs<RouteHeaders<R>> & FetchOptionShortcut<'cache'> & FetchOptionShortcut<'next'>>;

/** ts-rest's `ClientInferResponses`: every status the route answers with, as a `{status, body, headers}` union. */
export type RawResponse<R extends RouteTypes> = {
  [S in keyof R['responses']]: { status: S; body: R['responses'][S]; headers: Headers };
}[keyof R['responses']];

/** ts-rest's `AppRouteFunction`: the argument may be left out when nothing in it is required. */
export type RawRouteFunction<R extends RouteTypes> = Partial<CallArgs<R>> extends CallArgs<R>
  ? (args?: CallArgs<R>) => Promise<RawResponse<R>>
  : (args: CallArgs<R>) => Promise<RawResponse<R>>;

/** ts-rest's client for a route table: every call resolves to the `{status, body, headers}` union of the route. */
export type RawClient<Routes extends { [K in keyof Routes]: RouteTypes }> = { [K in keyof Routes]: RawRouteFunction<Routes[K]> };

type SuccessBodyOf<Res> = Res extends { status: 200 | 201 | 202 | 204; body: infer B } ? B : never;

/** The default call style: resolves to the success body, throws a typed error otherwise. */
export type ThrowingClient<C> = {
  [K in keyof C]: C[K] extends (...args: infer A) => Promise<infer Res> ? (...args: A) => Promise<SuccessBodyOf<Res>> : ThrowingClient<C[K]>;
};

/** One domain: its routes in the throwing style, and `raw` for the response unions. */
export type DomainClient<Routes extends { [K in keyof Routes]: RouteTypes }> = ThrowingClient<RawClient<Routes>> & { raw: RawClient<Routes> };
