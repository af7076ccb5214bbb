import type { AppRoute, ServerInferRequest, ServerInferResponseBody, SuccessfulHttpStatusCode } from '@ts-rest/core';
import type { contract, sandboxContract } from '@switchyard/contract';
import type { ClockAdvancer } from '../../app/clock-advance.js';
import type { MerchantQuota } from '../../app/merchant-quota.js';
import type { RequestContext } from '../../app/context.js';
import type { BaseClock } from '../../runtime/clock.js';
import type { IdFactory } from '../../runtime/ids.js';
import type { Store } from '../../store/types.js';
import type { WebhookDispatcher } from '../../webhooks/dispatcher.js';
import type { RequestJournal } from '../journal/journal.js';

/** Every router the sandbox serves, by key: the `/v1` domains and the control API. */
export type ApiRouters = typeof contract & { sandbox: typeof sandboxContract };

/** Sandbox-only request options, from headers the contract does not declare (docs/sandbox-payments.md). */
export interface SandboxOptions {
  /** `x-sandbox-provider-latency-ms`: how long the simulated provider takes to answer; 0 without the header. */
  providerLatencyMs: number;
}

/** What a handler of a merchant route gets: the use-case context, and the services the control API drives. */
export interface HandlerContext extends RequestContext, SandboxOptions {
  dispatcher: WebhookDispatcher;
  clockAdvancer: ClockAdvancer;
  journal: RequestJournal;
}

/** What a handler of a route without credentials (`auth: 'none'`) gets: there is no merchant. */
export interface PublicHandlerContext extends SandboxOptions {
  store: Store;
  clock: BaseClock;
  ids: IdFactory;
  merchantQuota: MerchantQuota;
}

/** The route's contract decides which context its handler gets. */
export type ContextOf<R extends AppRoute> = R['metadata'] extends { auth: 'none' } ? PublicHandlerContext : HandlerContext;

/** The request as the contract validated it: params, query, body and headers (whichever the route has). */
export type HandlerInput<R extends AppRoute> = ServerInferRequest<R>;

/** The body of the route's one success response. */
export type SuccessBody<R extends AppRoute> = ServerInferResponseBody<R, Extract<keyof R['responses'], SuccessfulHttpStatusCode>>;

/**
 * A route's handler: the validated request in, the success body out. Status, idempotency and
 * authentication come from the route's contract (see handle.ts); failures are thrown.
 */
export type Handler<R extends AppRoute> = (ctx: ContextOf<R>, input: HandlerInput<R>) => Promise<SuccessBody<R>> | SuccessBody<R>;

/** One handler per route of each router, so a route without a handler does not compile. */
export type Handlers = { [D in keyof ApiRouters]: { [K in keyof ApiRouters[D]]: ApiRouters[D][K] extends AppRoute ? Handler<ApiRouters[D][K]> : never } };
