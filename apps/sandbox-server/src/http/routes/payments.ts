import type { Request } from 'express';
import { paymentsContract } from '@switchyard/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import {
  cancelOrRefund,
  capturePayment,
  createPayment,
  disputeChargeback,
  getPayment,
  refundTransaction,
} from '../../app/payments.js';
import { badRequest } from '../../errors.js';
import type { Mount } from '../mount.js';
import { contextOf, PROVIDER_LATENCY_HEADER, type HttpDeps } from '../deps.js';
import { idempotentResponse } from '../idempotent-handler.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Reads the sandbox-only header that makes the simulated provider slow (to observe in-progress states). */
function providerLatency(deps: HttpDeps, req: Request): number {
  const raw = req.header(PROVIDER_LATENCY_HEADER);
  if (raw === undefined) return 0;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > deps.maxProviderLatencyMs) {
    throw badRequest('INVALID_PARAMETERS', `${PROVIDER_LATENCY_HEADER} must be an integer from 0 to ${deps.maxProviderLatencyMs}`);
  }
  return ms;
}

export function paymentsRoutes(deps: HttpDeps): Mount {
  const router = initServer().router(paymentsContract, {
    create: async ({ body, headers, res }) =>
      idempotentResponse(deps, res, headers, 'createPayment', 201, (ctx) => createPayment(ctx, body)),
    get: async ({ params, res }) => ({ status: 200, body: await getPayment(contextOf(deps, res), params.payment_id) }),
    capture: async ({ params, body, headers, res }) =>
      idempotentResponse(deps, res, headers, 'captureAuthorization', 200, (ctx) =>
        capturePayment(ctx, params.payment_id, params.transaction_id, body),
      ),
    refund: async ({ params, body, headers, req, res }) => {
      const latency = providerLatency(deps, req);
      return idempotentResponse(deps, res, headers, 'refundTransaction', 200, (ctx) =>
        refundTransaction(ctx, params.id, params.transaction_id, body, latency, sleep),
      );
    },
    cancelOrRefund: async ({ params, body, headers, req, res }) => {
      const latency = providerLatency(deps, req);
      return idempotentResponse(deps, res, headers, 'cancelOrRefundPayment', 201, (ctx) =>
        cancelOrRefund(ctx, params.payment_id, body, latency, sleep),
      );
    },
    dispute: async ({ params, body, headers, res }) =>
      idempotentResponse(deps, res, headers, 'disputeChargeback', 200, (ctx) =>
        disputeChargeback(ctx, params.payment_id, params.transaction_id, body),
      ),
  });
  return (target, options) => createExpressEndpoints(paymentsContract, router, target, options);
}
