import { webhooksContract } from '@switchyard/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from '../../app/webhooks.js';
import type { Mount } from '../mount.js';
import { contextOf, type HttpDeps } from '../deps.js';

export function webhooksRoutes(deps: HttpDeps): Mount {
  const router = initServer().router(webhooksContract, {
    list: async ({ query, res }) => ({ status: 200, body: await listWebhooks(contextOf(deps, res), query.account_id, query.state) }),
    create: async ({ body, res }) => ({ status: 201, body: await createWebhook(contextOf(deps, res), body) }),
    get: async ({ params, query, res }) => ({ status: 200, body: await getWebhook(contextOf(deps, res), params.webhook_id, query.account_id) }),
    update: async ({ params, body, res }) => ({ status: 200, body: await updateWebhook(contextOf(deps, res), params.webhook_id, body) }),
    delete: async ({ params, query, res }) => ({ status: 200, body: await deleteWebhook(contextOf(deps, res), params.webhook_id, query.account_id) }),
  });
  return (target, options) => createExpressEndpoints(webhooksContract, router, target, options);
}
