import { marketplaceContract } from '@switchyard/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { createRecipient, createTransfer, reverseTransfer } from '../../app/marketplace.js';
import type { Mount } from '../mount.js';
import { contextOf, type HttpDeps } from '../deps.js';
import { idempotentResponse } from '../idempotent-handler.js';

export function marketplaceRoutes(deps: HttpDeps): Mount {
  const router = initServer().router(marketplaceContract, {
    createRecipient: async ({ body, res }) => ({ status: 201, body: await createRecipient(contextOf(deps, res), body) }),
    createTransfer: async ({ body, headers, res }) =>
      idempotentResponse(deps, res, headers, 'createTransfer', 201, (ctx) => createTransfer(ctx, body)),
    reverseTransfer: async ({ params, body, headers, res }) =>
      idempotentResponse(deps, res, headers, 'reverseTransfer', 200, (ctx) => reverseTransfer(ctx, params.transfer_id, body)),
  });
  return (target, options) => createExpressEndpoints(marketplaceContract, router, target, options);
}
