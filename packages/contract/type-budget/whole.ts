// A consumer that imports the whole contract and infers a request and a response in every domain.
import type { ClientInferRequest, ClientInferResponseBody } from '@ts-rest/core';
import type { Contract } from '@switchyard/contract';

export type Inferred = [
  ClientInferRequest<Contract['customers']['create']>,
  ClientInferResponseBody<Contract['customers']['create'], 201>,
  ClientInferRequest<Contract['checkout']['createPaymentLink']>,
  ClientInferResponseBody<Contract['checkout']['createPaymentLink'], 200>,
  ClientInferRequest<Contract['paymentMethods']['enrollDirect']>,
  ClientInferResponseBody<Contract['paymentMethods']['enrollDirect'], 200>,
  ClientInferRequest<Contract['payments']['refund']>,
  ClientInferResponseBody<Contract['payments']['refund'], 200>,
  ClientInferRequest<Contract['subscriptions']['retry']>,
  ClientInferResponseBody<Contract['subscriptions']['retry'], 200>,
  ClientInferRequest<Contract['marketplace']['createRecipient']>,
  ClientInferResponseBody<Contract['marketplace']['createRecipient'], 201>,
  ClientInferRequest<Contract['banking']['createOnboarding']>,
  ClientInferResponseBody<Contract['banking']['createOnboarding'], 201>,
  ClientInferRequest<Contract['webhooks']['create']>,
  ClientInferResponseBody<Contract['webhooks']['create'], 201>,
];
export const probe = (r: Inferred[6], b: Inferred[7]): string[] => [r.body.merchant_reference, b.status];
