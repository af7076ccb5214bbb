import { subscriptionsContract } from '@switchyard/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { createSubscription, getSubscription, retrySubscription } from '../../app/subscriptions.js';
import type { Mount } from '../mount.js';
import { contextOf, type HttpDeps } from '../deps.js';
import { idempotentResponse } from '../idempotent-handler.js';
import type { RequestContext } from '../../app/context.js';

export function subscriptionsRoutes(deps: HttpDeps): Mount {
  const router = initServer().router(subscriptionsContract, {
    create: async ({ body, headers, res }) => {
      const key = headers['x-idempotency-key'];
      const create = (ctx: RequestContext) => createSubscription(ctx, body);
      // The key is optional here: with one, the call is idempotent like the routes that require it.
      return key ? idempotentResponse(deps, res, { 'x-idempotency-key': key }, 'createSubscription', 200, create) : { status: 200, body: await create(contextOf(deps, res)) };
    },
    get: async ({ params, res }) => ({ status: 200, body: await getSubscription(contextOf(deps, res), params.id) }),
    retry: async ({ params, headers, res }) => ({ status: 200, body: await retrySubscription(contextOf(deps, res), params.id, headers['x-account-code']) }),
  });
  return (target, options) => createExpressEndpoints(subscriptionsContract, router, target, options);
}
