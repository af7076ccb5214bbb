import { sandboxContract } from '@switchyard/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { chargeback, settleDispute } from '../../app/payments.js';
import { clockView, createMerchant, listEvents } from '../../app/sandbox.js';
import { completeEnrollment, scriptOutcomes } from '../../app/payment-methods.js';
import { settleOnboarding } from '../../app/banking.js';
import { listDeliveries, presentDelivery } from '../../app/webhooks.js';
import type { Mount } from '../mount.js';
import { contextOf, type HttpDeps } from '../deps.js';

export function sandboxRoutes(deps: HttpDeps): Mount {
  const router = initServer().router(sandboxContract, {
    createMerchant: async ({ body }) => ({ status: 201, body: await createMerchant(deps.store, deps.clock, deps.ids, body) }),
    getClock: async ({ res }) => ({ status: 200, body: clockView(contextOf(deps, res)) }),
    // Everything that falls due, webhook retries included, runs before the answer: tests stay deterministic.
    advanceClock: async ({ body, res }) => ({ status: 200, body: await deps.clockAdvancer.advance(contextOf(deps, res), body.seconds) }),
    reset: async ({ res }) => ({ status: 200, body: { deleted: await deps.store.resetMerchant(contextOf(deps, res).merchant.id) } }),
    listEvents: async ({ query, res }) => ({ status: 200, body: await listEvents(contextOf(deps, res), query) }),
    chargeback: async ({ params, body, res }) => ({ status: 200, body: await chargeback(contextOf(deps, res), params.payment_id, body) }),
    disputeOutcome: async ({ params, body, res }) => ({
      status: 200,
      body: await settleDispute(contextOf(deps, res), params.payment_id, body.outcome),
    }),
    completeEnrollment: async ({ params, body, res }) => ({
      status: 200,
      body: await completeEnrollment(contextOf(deps, res), params.customer_session, params.payment_method_id, body),
    }),
    scriptOutcomes: async ({ params, body, res }) => ({
      status: 200,
      body: { vaulted_token: params.vaulted_token, pending: (await scriptOutcomes(contextOf(deps, res), params.vaulted_token, body.sequence)).pending as typeof body.sequence },
    }),
    onboardingOutcome: async ({ params, body, res }) => ({ status: 200, body: await settleOnboarding(contextOf(deps, res), params.onboarding_id, body.status) }),
    listWebhookDeliveries: async ({ query, res }) => ({ status: 200, body: await listDeliveries(contextOf(deps, res), query) }),
    redeliverWebhook: async ({ params, res }) => {
      const delivery = await deps.dispatcher.attempt(contextOf(deps, res).merchant.id, params.delivery_id, true);
      if (!delivery) return { status: 404, body: { code: 'NOT_FOUND', messages: [`webhook delivery ${params.delivery_id} not found, or an attempt is in flight`] } };
      return { status: 200, body: presentDelivery(delivery) };
    },
  });
  return (target, options) => createExpressEndpoints(sandboxContract, router, target, options);
}
