import type { AppRoute } from '@ts-rest/core';
import { AuthHeaders } from '../headers.js';
import { commonErrorResponses, errorResponses, type ErrorCode, type ErrorResponses } from '../errors.js';
import type { RouteMeta } from '../meta.js';

/**
 * Options shared by every `/v1` domain router: the prefix, both API keys on every route,
 * and the error responses every route can give.
 */
export const v1RouterOptions = {
  pathPrefix: '/v1',
  baseHeaders: AuthHeaders,
  commonResponses: commonErrorResponses,
  strictStatusCodes: true,
} as const;

type Merged<A, B> = { [K in keyof A | keyof B]: K extends keyof B ? B[K] : K extends keyof A ? A[K] : never };

/** A route whose responses hold, beside its own, the error response of each code its metadata names. */
export type WithDeclaredErrors<R> = R extends { responses: infer Responses; metadata: { errors: infer C extends readonly ErrorCode[] } }
  ? { [K in keyof R]: K extends 'responses' ? Merged<Responses, ErrorResponses<C>> : R[K] }
  : R;

/**
 * A router whose every route answers the errors its metadata declares (`RouteMeta.errors`): each
 * code's status comes from `STATUS_OF`, so a route's error statuses are never written by hand
 * and a code whose status changes moves every route that answers it.
 */
export function withDeclaredErrors<const T extends Record<string, AppRoute>>(router: T): { [K in keyof T]: WithDeclaredErrors<T[K]> } {
  const routes = Object.entries(router).map(([key, route]) => {
    const { errors } = route.metadata as RouteMeta;
    return [key, { ...route, responses: { ...route.responses, ...errorResponses(errors) } }];
  });
  return Object.fromEntries(routes) as { [K in keyof T]: WithDeclaredErrors<T[K]> };
}
