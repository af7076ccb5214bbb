import type { Request, Response } from 'express';
import type { AppRoute, SuccessfulHttpStatusCode } from '@ts-rest/core';
import { ZodObject } from 'zod';
import { IDEMPOTENCY_HEADER, type RouteMeta } from '@switchyard/contract';
import { DomainError } from '../../domain/errors.js';
import { runIdempotent } from '../../app/idempotency.js';
import { PROVIDER_LATENCY_HEADER, REPLAYED_HEADER, type HttpDeps } from './deps.js';
import type { HandlerContext, PublicHandlerContext, SandboxOptions } from './handler-types.js';
import type { RequestContext } from '../../app/context.js';
import { merchantRequestContext } from './merchant-context.js';
import { authenticatedMerchant } from '../server/locals.js';
import { RequestStore } from './stale-merchant.js';

/** The validated request, whichever of its parts the route has. */
export interface RouteInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  headers?: unknown;
}

/**
 * A handler once its route's types are no longer needed: the table's type (`Handlers`) checked
 * it against its route. Declared as a method so that each route's handler, which takes that
 * route's input only, still fits this one type (method parameters are compared both ways).
 */
export type RouteHandler = { handler(ctx: HandlerContext | PublicHandlerContext, input: RouteInput): unknown }['handler'];

/** What ts-rest hands a route's implementation. */
interface RouteCall extends RouteInput {
  headers: Record<string, unknown>;
  req: Request;
  res: Response;
}

// The 2xx statuses ts-rest knows (it types a route's answer by them).
const isSuccess = (status: number): status is SuccessfulHttpStatusCode => status >= 200 && status <= 207;

/** The route's one success status: the contract lists exactly one 2xx response per route. */
export function successStatusOf(route: AppRoute, meta: RouteMeta): SuccessfulHttpStatusCode {
  const statuses = Object.keys(route.responses).map(Number).filter(isSuccess);
  const [status] = statuses;
  if (status === undefined || statuses.length > 1) throw new Error(`${meta.operationId} must have exactly one success response, has ${statuses.length}`);
  return status;
}

/** Whether the route takes an idempotency key: required (`meta.idempotent`) or, as on createSubscription, optional. */
const takesIdempotencyKey = (route: AppRoute, meta: RouteMeta) =>
  meta.idempotent || (route.headers instanceof ZodObject && IDEMPOTENCY_HEADER in route.headers.shape);

/** Reads the sandbox-only header that makes the simulated provider slow (to observe in-progress states). */
function sandboxOptions(deps: HttpDeps, req: Request): SandboxOptions {
  const raw = req.header(PROVIDER_LATENCY_HEADER);
  if (raw === undefined) return { providerLatencyMs: 0 };
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > deps.maxProviderLatencyMs) {
    throw new DomainError('INVALID_PARAMETERS', [`${PROVIDER_LATENCY_HEADER} must be an integer from 0 to ${deps.maxProviderLatencyMs}`]);
  }
  return { providerLatencyMs: ms };
}

/** The context of a route without credentials: the runtime, and no merchant. */
const publicContext = (deps: HttpDeps, call: RouteCall): PublicHandlerContext => ({ store: deps.store, clock: deps.clock, ids: deps.ids, merchantQuota: deps.merchantQuota, ...sandboxOptions(deps, call.req) });

/**
 * The context of an authenticated request (the auth middleware put the merchant on `res.locals`):
 * the merchant's use-case context with the control API's services added to it. Added, not spread
 * into a new literal with more keys: on Node 20 that form cost about 5 µs a request, a twentieth of
 * a customer's CPU (docs/benchmarks.md).
 */
function merchantContext(deps: HttpDeps, call: RouteCall): HandlerContext {
  const merchant = authenticatedMerchant(call.res);
  const services: Omit<HandlerContext, keyof RequestContext> = { dispatcher: deps.dispatcher, clockAdvancer: deps.clockAdvancer, journal: deps.journal, ...sandboxOptions(deps, call.req) };
  return Object.assign(merchantRequestContext(deps, merchant, new RequestStore(deps.store, call.res)), services);
}

const inputOf = (call: RouteCall): RouteInput => ({ params: call.params, query: call.query, body: call.body, headers: call.headers });

const keyOf = (call: RouteCall) => {
  const key = call.headers[IDEMPOTENCY_HEADER];
  return typeof key === 'string' ? key : undefined;
};

/**
 * The ts-rest implementation of one route: everything the contract knows about the route is
 * read from it here, once, so the handler is only the mapping from request to use case. It
 * answers the route's success status; a route without credentials gets no merchant; a route
 * that takes an idempotency key runs under it when the request carries one (the gate already
 * refused requests missing a required key), and marks replays.
 */
export function handle(deps: HttpDeps, route: AppRoute, meta: RouteMeta, handler: RouteHandler) {
  const status = successStatusOf(route, meta);
  const keyed = takesIdempotencyKey(route, meta);
  if (meta.auth === 'none') {
    // Idempotency keys are kept per merchant: a route without one cannot take a key.
    if (keyed) throw new Error(`${meta.operationId} takes an idempotency key but no credentials`);
    return async (call: RouteCall) => ({ status, body: await handler(publicContext(deps, call), inputOf(call)) });
  }
  return async (call: RouteCall) => {
    const ctx = merchantContext(deps, call);
    const key = keyed ? keyOf(call) : undefined;
    if (key === undefined) return { status, body: await handler(ctx, inputOf(call)) };
    const result = await runIdempotent(ctx, key, meta.operationId, async (journaled) => ({ status, body: await handler(journaled, inputOf(call)) }));
    if (result.replayed) call.res.setHeader(REPLAYED_HEADER, 'true');
    return { status, body: result.body };
  };
}
