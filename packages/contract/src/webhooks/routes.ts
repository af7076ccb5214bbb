import { z } from 'zod';
import { initContract } from '@ts-rest/core';
import { v1RouterOptions } from '../shared/router.js';
import { meta } from '../meta.js';
import { ApiError } from '../errors.js';
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

const unavailable = { 502: ApiError } as const;
const notFound = { 404: ApiError } as const;
const conflict = { 409: ApiError } as const;
/**
 * Upstream's webhook operations answer invalid requests WEBHOOK_INVALID_REQUEST and a request
 * without keys 401 NOT_AUTHENTICATED (manage-webhooks.json, InvalidCreateRequest and Unauthorized).
 */
const supportingMeta = (operationId: string) =>
  meta({ operationId, idempotent: false, supporting: true, specSection: null, domain: 'webhooks', validationCode: 'WEBHOOK_INVALID_REQUEST', missingKeysCode: 'NOT_AUTHENTICATED' });
/** Upstream's create and update answer an unknown trigger WEBHOOK_INVALID_TRIGGER (manage-webhooks.json, "Invalid trigger"). */
const writeMeta = (operationId: string) =>
  meta({ ...supportingMeta(operationId), bodyFieldCodes: Object.fromEntries(TRIGGER_FIELDS.map((field) => [field, 'WEBHOOK_INVALID_TRIGGER'] as const)) });

export const webhooksContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/webhooks',
      query: WebhookListQuery,
      responses: { 200: z.array(Webhook), ...unavailable },
      summary: 'List webhooks',
      metadata: supportingMeta('listWebhooks'),
    },
    create: {
      method: 'POST',
      path: '/webhooks',
      body: CreateWebhookBody,
      responses: { 201: Webhook, ...conflict, ...unavailable },
      summary: 'Create a webhook',
      description: 'Subscribes a URL to event triggers. Secrets come back masked; a duplicate name answers 409.',
      metadata: writeMeta('createWebhook'),
    },
    get: {
      method: 'GET',
      path: '/webhooks/:webhook_id',
      pathParams: WebhookIdParams,
      query: WebhookAccountQuery,
      responses: { 200: Webhook, ...notFound, ...unavailable },
      summary: 'Retrieve a webhook',
      metadata: supportingMeta('getWebhook'),
    },
    update: {
      method: 'PATCH',
      path: '/webhooks/:webhook_id',
      pathParams: WebhookIdParams,
      body: UpdateWebhookBody,
      responses: { 200: Webhook, ...notFound, ...conflict, ...unavailable },
      summary: 'Update a webhook',
      metadata: writeMeta('updateWebhook'),
    },
    delete: {
      method: 'DELETE',
      path: '/webhooks/:webhook_id',
      pathParams: WebhookIdParams,
      query: WebhookAccountQuery,
      body: c.noBody(),
      responses: { 200: Webhook, ...notFound, ...unavailable },
      summary: 'Delete a webhook',
      metadata: supportingMeta('deleteWebhook'),
    },
  },
  v1RouterOptions,
);
