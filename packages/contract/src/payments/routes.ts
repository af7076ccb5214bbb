import { initContract } from '@ts-rest/core';
import { v1RouterOptions, withDeclaredErrors } from '../shared/router.js';
import { meta } from '../meta.js';
import { IdempotencyKeyHeader } from '../headers.js';
import {
  CancelOrRefundBody,
  CaptureBody,
  CreatePaymentBody,
  DisputeBody,
  GetPaymentQuery,
  Payment,
  PaymentIdParams,
  PaymentTransactionParams,
  RefundBody,
  RefundParams,
  RetrievedPayment,
  TransactionResult,
} from './schemas.js';

const c = initContract();

export const paymentsContract = withDeclaredErrors(c.router(
  {
    create: {
      method: 'POST',
      path: '/payments',
      headers: IdempotencyKeyHeader,
      body: CreatePaymentBody,
      responses: { 201: Payment },
      summary: 'Create a payment',
      description:
        'Charges (or, with capture false, authorizes) a payment for a checkout session; a DIRECT or REDIRECT payment may come without one. A declined payment is a 201 whose status is DECLINED.',
      metadata: meta({ operationId: 'createPayment', idempotent: true, supporting: true, specSection: null, domain: 'payments', errors: ['CHECKOUT_SESSION_NOT_FOUND', 'CUSTOMER_NOT_FOUND', 'PAYMENT_METHOD_NOT_FOUND', 'INVALID_AMOUNT', 'INVALID_STATE'] }),
    },
    get: {
      method: 'GET',
      path: '/payments/:payment_id',
      pathParams: PaymentIdParams,
      query: GetPaymentQuery,
      responses: { 200: RetrievedPayment },
      summary: 'Retrieve a payment',
      description:
        'Returns the payment with every one of its transactions, oldest first. transactions_history=true adds transactions_history (the latest transaction), raw_response=true the provider\'s raw answer (provider_data.raw_response); both default to false.',
      metadata: meta({ operationId: 'getPayment', idempotent: false, supporting: true, specSection: null, domain: 'payments', errors: ['PAYMENT_NOT_FOUND'] }),
    },
    refund: {
      method: 'POST',
      path: '/payments/:id/transactions/:transaction_id/refund',
      pathParams: RefundParams,
      headers: IdempotencyKeyHeader,
      body: RefundBody,
      responses: { 200: Payment },
      summary: 'Refund a transaction',
      description:
        'Refunds a captured transaction, fully without amount or partially with it. The refunded total never exceeds the captured amount; a refund is refused while another is in progress.',
      metadata: meta({ operationId: 'refundTransaction', idempotent: true, supporting: false, specSection: '4.2', domain: 'payments', errors: ['PAYMENT_NOT_FOUND', 'TRANSACTION_NOT_FOUND', 'INVALID_TRANSACTION', 'INVALID_AMOUNT', 'INVALID_STATE', 'CHARGEBACK_IN_PROCESS'] }),
    },
    capture: {
      method: 'POST',
      path: '/payments/:payment_id/transactions/:transaction_id/capture',
      pathParams: PaymentTransactionParams,
      headers: IdempotencyKeyHeader,
      body: CaptureBody,
      responses: { 200: TransactionResult },
      summary: 'Capture an authorization',
      description:
        'Captures an authorized (capture: false) payment: in full when amount is the authorized amount, partially when less. Answers the CAPTURE transaction with the payment inside, as cancel-or-refund does.',
      metadata: meta({ operationId: 'captureAuthorization', idempotent: true, supporting: true, specSection: null, domain: 'payments', errors: ['PAYMENT_NOT_FOUND', 'TRANSACTION_NOT_FOUND', 'INVALID_TRANSACTION', 'INVALID_AMOUNT', 'INVALID_STATE'] }),
    },
    cancelOrRefund: {
      method: 'POST',
      path: '/payments/:payment_id/cancel-or-refund',
      pathParams: PaymentIdParams,
      headers: IdempotencyKeyHeader,
      body: CancelOrRefundBody,
      responses: { 201: TransactionResult },
      summary: 'Cancel or refund a payment',
      description:
        'Cancels a payment that has not been captured, refunds one that has (partially with amount). merchant_reference defaults to the payment\'s merchant_order_id.',
      metadata: meta({ operationId: 'cancelOrRefundPayment', idempotent: true, supporting: false, specSection: '4.6', domain: 'payments', errors: ['PAYMENT_NOT_FOUND', 'INVALID_AMOUNT', 'INVALID_STATE', 'CHARGEBACK_IN_PROCESS'] }),
    },
    dispute: {
      method: 'POST',
      path: '/payments/:payment_id/transactions/:transaction_id/dispute',
      pathParams: PaymentTransactionParams,
      headers: IdempotencyKeyHeader,
      body: DisputeBody,
      responses: { 200: Payment },
      summary: 'Dispute a chargeback',
      description:
        'Submits PDF evidence (base64, at most 1 MB decoded) against a chargeback transaction. The payment moves to IN_DISPUTE / PENDING_REVIEW.',
      metadata: meta({ operationId: 'disputeChargeback', idempotent: true, supporting: false, specSection: '4.9', domain: 'payments', errors: ['PAYMENT_NOT_FOUND', 'TRANSACTION_NOT_FOUND', 'INVALID_TRANSACTION', 'INVALID_STATE'] }),
    },
  },
  v1RouterOptions,
));
