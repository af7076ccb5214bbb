import { customersContract } from '@switchyard/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import { createCustomer, createCustomerSession, getCustomer } from '../../app/customers.js';
import type { Mount } from '../mount.js';
import { contextOf, type HttpDeps } from '../deps.js';

export function customersRoutes(deps: HttpDeps): Mount {
  const router = initServer().router(customersContract, {
    create: async ({ body, res }) => ({ status: 201, body: await createCustomer(contextOf(deps, res), body) }),
    get: async ({ params, res }) => ({ status: 200, body: await getCustomer(contextOf(deps, res), params.customer_id) }),
    createSession: async ({ body, res }) => ({ status: 201, body: await createCustomerSession(contextOf(deps, res), body) }),
  });
  return (target, options) => createExpressEndpoints(customersContract, router, target, options);
}
