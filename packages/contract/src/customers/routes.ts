import { initContract } from '@ts-rest/core';
import { v1RouterOptions, withDeclaredErrors } from '../shared/router.js';
import { meta } from '../meta.js';
import { CreateCustomerBody, CreateCustomerSessionBody, Customer, CustomerIdParams, CustomerSession } from './schemas.js';

const c = initContract();


export const customersContract = withDeclaredErrors(c.router(
  {
    create: {
      method: 'POST',
      path: '/customers',
      body: CreateCustomerBody,
      responses: { 201: Customer },
      summary: 'Create a customer',
      description:
        'Creates the customer whose id starts checkout and enrollment. merchant_customer_id is unique per merchant.',
      metadata: meta({ operationId: 'createCustomer', idempotent: false, supporting: false, specSection: '4.11', domain: 'customers', errors: ['CUSTOMER_ID_DUPLICATED'] }),
    },
    get: {
      method: 'GET',
      path: '/customers/:customer_id',
      pathParams: CustomerIdParams,
      responses: { 200: Customer },
      summary: 'Retrieve a customer',
      description: 'Returns a customer created by this merchant; another merchant\'s id answers CUSTOMER_NOT_FOUND.',
      metadata: meta({ operationId: 'getCustomer', idempotent: false, supporting: true, specSection: null, domain: 'customers', errors: ['CUSTOMER_NOT_FOUND'] }),
    },
    createSession: {
      method: 'POST',
      path: '/customers/sessions',
      body: CreateCustomerSessionBody,
      responses: { 201: CustomerSession },
      summary: 'Create a customer session',
      description: 'Opens a session in which payment methods are enrolled for a customer (SDK flow, §4.1).',
      metadata: meta({ operationId: 'createCustomerSession', idempotent: false, supporting: true, specSection: null, domain: 'customers', errors: ['CUSTOMER_NOT_FOUND'] }),
    },
  },
  v1RouterOptions,
));
