import { initContract } from '@ts-rest/core';
import { v1RouterOptions, withDeclaredErrors } from '../shared/router.js';
import { meta } from '../meta.js';
import { IdempotencyKeyHeader } from '../headers.js';
import {
  CustomerIdPathParams,
  CustomerSessionParams,
  DirectEnrolledPaymentMethod,
  EnrollDirectBody,
  EnrollInSessionBody,
  SessionEnrolledPaymentMethod,
} from './schemas.js';

const c = initContract();

export const paymentMethodsContract = withDeclaredErrors(c.router(
  {
    enrollInSession: {
      method: 'POST',
      path: '/customers/sessions/:customer_session/payment-methods',
      pathParams: CustomerSessionParams,
      headers: IdempotencyKeyHeader,
      body: EnrollInSessionBody,
      responses: { 201: SessionEnrolledPaymentMethod },
      summary: 'Enroll a payment method in a customer session',
      description: 'SDK flow: the method is created READY_TO_ENROLL and completed by the customer through the SDK.',
      metadata: meta({ operationId: 'enrollPaymentMethodInSession', idempotent: true, supporting: false, specSection: '4.1', domain: 'payment-methods', errors: ['CUSTOMER_SESSION_NOT_FOUND', 'INVALID_STATE'] }),
    },
    enrollDirect: {
      method: 'POST',
      path: '/customers/:customer_id/payment-methods',
      pathParams: CustomerIdPathParams,
      headers: IdempotencyKeyHeader,
      body: EnrollDirectBody,
      responses: { 200: DirectEnrolledPaymentMethod },
      summary: 'Enroll a payment method directly',
      description:
        'Direct flow for PCI certified merchants. Enrolling the same card again always creates a new enrollment with a distinct vaulted_token.',
      metadata: meta({ operationId: 'enrollPaymentMethodDirect', idempotent: true, supporting: false, specSection: '4.3', domain: 'payment-methods', errors: ['CUSTOMER_NOT_FOUND', 'INVALID_STATE'] }),
    },
  },
  v1RouterOptions,
));
