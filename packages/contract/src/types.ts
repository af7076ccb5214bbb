import type { AppRoute, ClientInferRequest, ClientInferResponseBody, ClientInferResponses } from '@ts-rest/core';

/** The 2xx status a route answers on success. */
export type SuccessStatus<R extends AppRoute> = Extract<keyof R['responses'], 200 | 201 | 202 | 204>;

/** What a caller sends to a route: path params, query, headers and body. */
export type RouteRequest<R extends AppRoute> = ClientInferRequest<R>;

/** The body of a route's success response. */
export type SuccessBody<R extends AppRoute> = ClientInferResponseBody<R, SuccessStatus<R>>;

/** Every response of a route as a `{status, body}` union. */
export type RouteResponse<R extends AppRoute> = ClientInferResponses<R>;

/** Request types of every route of a router: `Requests<typeof paymentsContract>['refund']`. */
export type Requests<Router> = { [K in keyof Router]: Router[K] extends AppRoute ? RouteRequest<Router[K]> : never };

/** Success body types of every route of a router: `SuccessBodies<typeof paymentsContract>['refund']`. */
export type SuccessBodies<Router> = { [K in keyof Router]: Router[K] extends AppRoute ? SuccessBody<Router[K]> : never };
