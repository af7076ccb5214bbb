import { initContract } from '@ts-rest/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { meta } from '../meta.js';
import { v1RouterOptions, withDeclaredErrors } from './router.js';

const c = initContract();
const thing = {
  method: 'GET',
  path: '/things/:id',
  responses: { 200: z.object({ id: z.string() }) },
  metadata: meta({ operationId: 'getThing', idempotent: false, supporting: true, specSection: null, domain: 'marketplace', errors: ['RECIPIENT_NOT_FOUND', 'PROVIDER_INTERNAL_ERROR'] }),
} as const;

describe('withDeclaredErrors', () => {
  const router = withDeclaredErrors(c.router({ getThing: thing }, v1RouterOptions));

  it("adds the response of each declared code under its status, beside the route's own and the common ones", () => {
    expect(Object.keys(router.getThing.responses).map(Number).sort((a, b) => a - b)).toEqual([200, 400, 401, 403, 404, 500, 502]);
    expect(router.getThing.responses[404]).toBe(ApiError);
    expectTypeOf(router.getThing.responses).toHaveProperty(404);
    expectTypeOf(router.getThing.responses).toHaveProperty(502);
  });

  it('keeps everything else of the route, the path prefix of its router included', () => {
    expect(router.getThing.path).toBe('/v1/things/:id');
    expect(router.getThing.metadata.errors).toEqual(['RECIPIENT_NOT_FOUND', 'PROVIDER_INTERNAL_ERROR']);
  });

  it('takes a route only with its error codes declared: a route without them does not compile', () => {
    const { errors: _errors, ...undeclared } = thing.metadata;
    // @ts-expect-error RouteMeta.errors is required
    const route = meta(undeclared);
    expect(route).not.toHaveProperty('errors');
  });
});
