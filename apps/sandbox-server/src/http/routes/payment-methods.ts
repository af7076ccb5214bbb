import { paymentMethodsContract } from '@switchyard/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { enrollDirect, enrollInSession } from '../../app/payment-methods.js';
import type { Mount } from '../mount.js';
import type { HttpDeps } from '../deps.js';
import { idempotentResponse } from '../idempotent-handler.js';

export function paymentMethodsRoutes(deps: HttpDeps): Mount {
  const router = initServer().router(paymentMethodsContract, {
    enrollInSession: async ({ params, body, headers, res }) =>
      idempotentResponse(deps, res, headers, 'enrollPaymentMethodInSession', 201, (ctx) =>
        enrollInSession(ctx, params.customer_session, body, headers['x-idempotency-key']),
      ),
    enrollDirect: async ({ params, body, headers, res }) =>
      idempotentResponse(deps, res, headers, 'enrollPaymentMethodDirect', 200, (ctx) =>
        enrollDirect(ctx, params.customer_id, body, headers['x-idempotency-key']),
      ),
  });
  return (target, options) => createExpressEndpoints(paymentMethodsContract, router, target, options);
}
