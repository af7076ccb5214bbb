// A consumer that needs one domain only imports its entry point.
import type { ClientInferRequest, ClientInferResponseBody } from '@ts-rest/core';
import type { customersContract } from '@switchyard/contract/customers';

type Create = (typeof customersContract)['create'];
export const probe = (r: ClientInferRequest<Create>, b: ClientInferResponseBody<Create, 201>): string[] => [
  r.body.merchant_customer_id,
  b.id,
];
