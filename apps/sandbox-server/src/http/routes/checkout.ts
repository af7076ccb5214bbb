import { checkoutContract } from '@switchyard/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { createCheckoutSession, createPaymentLink } from '../../app/checkout.js';
import type { Mount } from '../mount.js';
import { contextOf, type HttpDeps } from '../deps.js';

export function checkoutRoutes(deps: HttpDeps): Mount {
  const router = initServer().router(checkoutContract, {
    createSession: async ({ body, res }) => ({ status: 200, body: await createCheckoutSession(contextOf(deps, res), body) }),
    createPaymentLink: async ({ body, res }) => ({ status: 200, body: await createPaymentLink(contextOf(deps, res), body) }),
  });
  return (target, options) => createExpressEndpoints(checkoutContract, router, target, options);
}
