import { z } from 'zod';
import { initContract } from '@ts-rest/core';
import { v1RouterOptions, withDeclaredErrors } from '../shared/router.js';
import { meta } from '../meta.js';
import type { ErrorCode } from '../errors.js';
import {
  TRIGGER_FIELDS,
  CreateWebhookBody,
  UpdateWebhookBody,
  Webhook,
  WebhookAccountQuery,
  WebhookIdParams,
  WebhookListQuery,
} from './schemas.js';

const c = initContract();

/**
 * Upstream's webhook operations answer invalid requests WEBHOOK_INVALID_REQUEST and a request
 * without keys 401 NOT_AUTHENTICATED (Manage Webhooks, InvalidCreateRequest and Unauthorized).
 */
const supportingMeta = <const C extends readonly ErrorCode[]>(operationId: string, errors: C) =>
  meta({ operationId, idempotent: false, supporting: true, specSection: null, domain: 'webhooks', errors, validationCode: 'WEBHOOK_INVALID_REQUEST', missingKeysCode: 'NOT_AUTHENTICATED' });
/** Upstream's create and update answer an unknown trigger WEBHOOK_INVALID_TRIGGER (Manage Webhooks, "Invalid trigger"). */
const writeMeta = <const C extends readonly ErrorCode[]>(operationId: string, errors: C) =>
  meta({ ...supportingMeta(operationId, errors), bodyFieldCodes: Object.fromEntries(TRIGGER_FIELDS.map((field) => [field, 'WEBHOOK_INVALID_TRIGGER'] as const)) });

export const webhooksContract = withDeclaredErrors(c.router(
  {
    list: {
      method: 'GET',
      path: '/webhooks',
      query: WebhookListQuery,
      responses: { 200: z.array(Webhook) },
      summary: 'List webhooks',
      metadata: supportingMeta('listWebhooks', ['INVALID_ACCOUNT_ID', 'PROVIDER_INTERNAL_ERROR']),
    },
    create: {
      method: 'POST',
      path: '/webhooks',
      body: CreateWebhookBody,
      responses: { 201: Webhook },
      summary: 'Create a webhook',
      description: 'Subscribes a URL to event triggers. Secrets come back masked; a duplicate name answers 409.',
      metadata: writeMeta('createWebhook', ['WEBHOOK_ALREADY_EXISTS', 'WEBHOOK_INVALID_TRIGGER', 'WEBHOOK_INVALID_RENEWAL_DAYS', 'WEBHOOK_URL_UNSAFE', 'WEBHOOK_INVALID_REQUEST', 'INVALID_ACCOUNT_ID', 'PROVIDER_INTERNAL_ERROR']),
    },
    get: {
      method: 'GET',
      path: '/webhooks/:webhook_id',
      pathParams: WebhookIdParams,
      query: WebhookAccountQuery,
      responses: { 200: Webhook },
      summary: 'Retrieve a webhook',
      metadata: supportingMeta('getWebhook', ['WEBHOOK_NOT_FOUND', 'INVALID_ACCOUNT_ID', 'PROVIDER_INTERNAL_ERROR']),
    },
    update: {
      method: 'PATCH',
      path: '/webhooks/:webhook_id',
      pathParams: WebhookIdParams,
      body: UpdateWebhookBody,
      responses: { 200: Webhook },
      summary: 'Update a webhook',
      metadata: writeMeta('updateWebhook', ['WEBHOOK_NOT_FOUND', 'WEBHOOK_ALREADY_EXISTS', 'WEBHOOK_INVALID_TRIGGER', 'WEBHOOK_INVALID_RENEWAL_DAYS', 'WEBHOOK_URL_UNSAFE', 'INVALID_ACCOUNT_ID', 'PROVIDER_INTERNAL_ERROR']),
    },
    delete: {
      method: 'DELETE',
      path: '/webhooks/:webhook_id',
      pathParams: WebhookIdParams,
      query: WebhookAccountQuery,
      body: c.noBody(),
      responses: { 200: Webhook },
      summary: 'Delete a webhook',
      metadata: supportingMeta('deleteWebhook', ['WEBHOOK_NOT_FOUND', 'INVALID_ACCOUNT_ID', 'PROVIDER_INTERNAL_ERROR']),
    },
  },
  v1RouterOptions,
));
