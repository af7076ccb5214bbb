import { initContract } from '@ts-rest/core';
import { v1RouterOptions, withDeclaredErrors } from '../shared/router.js';
import { meta } from '../meta.js';
import { IdempotencyKeyHeader } from '../headers.js';
import { CreateRecipientBody, CreateTransferBody, Recipient, ReverseTransferBody, Transfer, TransferIdParams } from './schemas.js';

const c = initContract();


export const marketplaceContract = withDeclaredErrors(c.router(
  {
    createRecipient: {
      method: 'POST',
      path: '/recipients',
      body: CreateRecipientBody,
      responses: { 201: Recipient },
      summary: 'Create a recipient',
      description:
        'Creates a recipient for split payments. ENTITY recipients need legal_representatives; legal_name is only accepted for ENTITY.',
      metadata: meta({ operationId: 'createRecipient', idempotent: false, supporting: false, specSection: '4.7', domain: 'marketplace', errors: [] }),
    },
    createTransfer: {
      method: 'POST',
      path: '/split-marketplace/transfers',
      headers: IdempotencyKeyHeader,
      body: CreateTransferBody,
      responses: { 201: Transfer },
      summary: 'Create a standalone transfer',
      description:
        "Moves funds to a recipient outside a payment split, from what the marketplace holds for that recipient. Refused (400) when the provider is unknown (PROVIDER_NOT_FOUND), the recipient has no SUCCEEDED onboarding with it (ONBOARDING_NOT_VALID), the recipient is paid out in another currency (CURRENCY_NOT_SUPPORTED) or the balance is short (INSUFFICIENT_BALANCE).",
      // Upstream answers a currency it does not pay out CURRENCY_NOT_SUPPORTED (Create Standalone Transfer), also one that is no currency at all.
      metadata: meta({ operationId: 'createTransfer', idempotent: true, supporting: true, specSection: null, domain: 'marketplace', bodyFieldCodes: { 'amount.currency': 'CURRENCY_NOT_SUPPORTED' }, errors: ['RECIPIENT_NOT_FOUND', 'PROVIDER_INTERNAL_ERROR', 'INVALID_AMOUNT', 'INVALID_CURRENCY', 'PROVIDER_NOT_FOUND', 'ONBOARDING_NOT_VALID', 'CURRENCY_NOT_SUPPORTED', 'INSUFFICIENT_BALANCE'] }),
    },
    reverseTransfer: {
      method: 'POST',
      path: '/split-marketplace/transfers/:transfer_id/reverse',
      pathParams: TransferIdParams,
      headers: IdempotencyKeyHeader,
      body: ReverseTransferBody,
      responses: { 200: Transfer },
      summary: 'Reverse a standalone transfer',
      description: 'Reverses a SUCCEEDED transfer, fully without amount or partially with it.',
      // "The specified currency is invalid or does not match the original transfer": INVALID_CURRENCY (Reverse Standalone Transfer).
      metadata: meta({ operationId: 'reverseTransfer', idempotent: true, supporting: false, specSection: '4.5', domain: 'marketplace', bodyFieldCodes: { 'amount.currency': 'INVALID_CURRENCY' }, errors: ['TRANSFER_NOT_FOUND', 'PROVIDER_INTERNAL_ERROR', 'TRANSFER_NOT_REVERSIBLE', 'TRANSFER_ALREADY_REVERSED', 'REVERSAL_AMOUNT_EXCEEDS'] }),
    },
  },
  v1RouterOptions,
));
