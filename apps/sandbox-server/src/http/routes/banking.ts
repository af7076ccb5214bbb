import { bankingContract } from '@switchyard/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { createEntity, createOnboarding, getOnboarding, updateAccount } from '../../app/banking.js';
import type { Mount } from '../mount.js';
import { contextOf, type HttpDeps } from '../deps.js';
import { idempotentResponse } from '../idempotent-handler.js';

export function bankingRoutes(deps: HttpDeps): Mount {
  const router = initServer().router(bankingContract, {
    createEntity: async ({ body, headers, res }) =>
      idempotentResponse(deps, res, headers, 'createBankingEntity', 201, (ctx) => createEntity(ctx, body)),
    createOnboarding: async ({ params, body, headers, res }) =>
      idempotentResponse(deps, res, headers, 'createBankingOnboarding', 201, (ctx) => createOnboarding(ctx, params.entity_id, body)),
    getOnboarding: async ({ params, res }) => ({ status: 200, body: await getOnboarding(contextOf(deps, res), params.entity_id, params.onboarding_id) }),
    updateAccount: async ({ params, body, res }) => ({ status: 200, body: await updateAccount(contextOf(deps, res), params.account_id, body) }),
  });
  return (target, options) => createExpressEndpoints(bankingContract, router, target, options);
}
