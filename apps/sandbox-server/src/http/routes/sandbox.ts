import { sandboxContract } from '@switchyard/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { chargeback, settleDispute } from '../../app/payments.js';
import { advanceClock, clockView, createMerchant, listEvents } from '../../app/sandbox.js';
import type { Mount } from '../mount.js';
import { contextOf, type HttpDeps } from '../deps.js';

export function sandboxRoutes(deps: HttpDeps): Mount {
  const router = initServer().router(sandboxContract, {
    createMerchant: async ({ body }) => ({ status: 201, body: await createMerchant(deps.store, deps.clock, body) }),
    getClock: async ({ res }) => ({ status: 200, body: clockView(contextOf(deps, res)) }),
    advanceClock: async ({ body, res }) => ({ status: 200, body: await advanceClock(contextOf(deps, res), body.seconds) }),
    reset: async ({ res }) => ({ status: 200, body: { deleted: await deps.store.resetMerchant(contextOf(deps, res).merchant.id) } }),
    listEvents: async ({ query, res }) => ({ status: 200, body: await listEvents(contextOf(deps, res), query) }),
    chargeback: async ({ params, body, res }) => ({ status: 200, body: await chargeback(contextOf(deps, res), params.payment_id, body) }),
    disputeOutcome: async ({ params, body, res }) => ({
      status: 200,
      body: await settleDispute(contextOf(deps, res), params.payment_id, body.outcome),
    }),
  });
  return (app, options) => createExpressEndpoints(sandboxContract, router, app, options);
}
