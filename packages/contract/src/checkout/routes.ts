import { initContract } from '@ts-rest/core';
import { v1RouterOptions, withDeclaredErrors } from '../shared/router.js';
import { meta } from '../meta.js';
import { CheckoutSession, CreateCheckoutSessionBody, CreatePaymentLinkBody, PaymentLink } from './schemas.js';

const c = initContract();


export const checkoutContract = withDeclaredErrors(c.router(
  {
    createSession: {
      method: 'POST',
      path: '/checkout/sessions',
      body: CreateCheckoutSessionBody,
      responses: { 200: CheckoutSession },
      summary: 'Create a checkout session',
      description: 'Starts a payment flow. A session expires 5 hours after creation and takes one payment.',
      metadata: meta({ operationId: 'createCheckoutSession', idempotent: false, supporting: false, specSection: '4.10', domain: 'checkout', errors: ['CUSTOMER_NOT_FOUND'] }),
    },
    createPaymentLink: {
      method: 'POST',
      path: '/payment-links',
      body: CreatePaymentLinkBody,
      responses: { 200: PaymentLink },
      summary: 'Create a payment link',
      description: 'Creates a payment link with a hosted checkout address, optionally limited to an availability window.',
      metadata: meta({ operationId: 'createPaymentLink', idempotent: false, supporting: false, specSection: '4.12', domain: 'checkout', errors: [] }),
    },
  },
  v1RouterOptions,
));
