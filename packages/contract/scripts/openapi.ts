/**
 * The OpenAPI 3.1 document of the `/v1` contract. OpenAPI 3.1 rather than 3.0: its schemas are
 * JSON Schema 2020-12, so a nullable field is `type: [x, 'null']` (3.0's `nullable` needs a
 * sibling `type`, which a `$ref` or a union cannot carry, and strict validators refuse it), and it
 * has a `webhooks` section for the events the API delivers (docs/openapi.md).
 *
 * Every schema the contract exports is one component named after its export (json-schema.ts);
 * everything else is written where it is used.
 */
import { readdirSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { AppRoute } from '@ts-rest/core';
import type { z } from 'zod';
import * as contractExports from '../src/index.js';
import { contract, listRoutes, WEBHOOK_EVENT_SCHEMAS, WEBHOOK_SIGNATURE_HEADER } from '../src/index.js';
import type { RouteMeta } from '../src/meta.js';
import { SchemaWriter, schemaNames, sharedVocabulary, type JsonSchema } from './json-schema.js';

/**
 * The names components take: every export of the package's entry point, then the shared
 * vocabulary every domain builds from (`src/shared/`: `Address`, `AdditionalData`, ...), which no
 * entry point re-exports; an entry point's name wins where a schema has both.
 */
const SHARED_DIR = new URL('../src/shared/', import.meta.url);
const sharedModules = await Promise.all(
  readdirSync(SHARED_DIR)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort()
    .map((file) => import(new URL(file.replace(/\.ts$/, '.js'), SHARED_DIR).href) as Promise<Record<string, unknown>>),
);
const NAMES = new Map([...sharedModules.flatMap((m) => [...sharedVocabulary(m)]), ...schemaNames(contractExports as Record<string, unknown>)]);

const TAGS: Record<Exclude<RouteMeta['domain'], 'sandbox'>, string> = {
  customers: 'Customers and customer sessions',
  checkout: 'Checkout sessions and payment links',
  'payment-methods': 'Enrollment (vaulting) of payment methods',
  payments: 'Payments, refunds, cancel-or-refund, chargeback disputes',
  subscriptions: 'Subscriptions and payment retries',
  marketplace: 'Recipients and split transfers',
  banking: 'Banking entities, onboardings and accounts',
  webhooks: 'Webhook management, and the events the API delivers to a webhook',
};

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: JsonSchema;
  servers: JsonSchema[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, JsonSchema>>;
  webhooks: Record<string, { post: JsonSchema }>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
}

const JSON_MEDIA = 'application/json';

/** The OpenAPI 3.1 document of the `/v1` contract: one operationId and one tag per route, and one webhook per event. */
export function buildOpenApiDocument(): OpenApiDocument {
  // A first pass finds the schemas written both as a request and as an answer: only their request side is `<Name>Input`.
  const { uses } = writeDocument(new SchemaWriter(NAMES)).writer;
  return writeDocument(new SchemaWriter(NAMES, (name) => uses.get(name)?.size === 2)).document;
}

function writeDocument(writer: SchemaWriter): { writer: SchemaWriter; document: OpenApiDocument } {
  const paths: OpenApiDocument['paths'] = {};
  for (const { route, meta } of listRoutes(contract)) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, meta, writer) };
  }
  const webhooks: OpenApiDocument['webhooks'] = {};
  for (const [event, schema] of Object.entries(WEBHOOK_EVENT_SCHEMAS)) {
    webhooks[event] = {
      post: {
        operationId: `webhookEvent_${event.replace(/\W/g, '_')}`,
        summary: `The ${event} event`,
        description: `Delivered by POST to every webhook subscribed to ${event}. Any 2xx answer acknowledges it; anything else is retried.`,
        tags: ['webhooks'],
        // The receiver is the merchant's own endpoint: the API keys are not sent to it.
        security: [],
        parameters: [
          {
            name: WEBHOOK_SIGNATURE_HEADER,
            in: 'header',
            required: true,
            description: 'Base64 of the HMAC-SHA256 of the raw body, keyed with the webhook\'s hmac_client_secret: verify it before parsing.',
            schema: { type: 'string' },
          },
        ],
        requestBody: { required: true, content: { [JSON_MEDIA]: { schema: writer.write(schema, 'output') } } },
        responses: { '200': { description: 'The event was received.' } },
      },
    };
  }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard payments orchestration API',
      version: '1.0.0',
      description:
        'Customers, checkout sessions, payment links, vaulting, payments, refunds, cancel-or-refund, chargeback disputes, subscriptions, marketplace recipients and transfers, banking entities, onboardings and accounts. Every route needs the public-api-key and private-secret-key headers.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://localhost:4010', description: 'Switchyard sandbox (default port)' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{ publicApiKey: [], privateSecretKey: [] }],
    paths,
    webhooks,
    components: {
      securitySchemes: {
        publicApiKey: { type: 'apiKey', in: 'header', name: 'public-api-key' },
        privateSecretKey: { type: 'apiKey', in: 'header', name: 'private-secret-key' },
      },
      schemas: writer.sortedComponents(),
    },
  };
  return { writer, document };
}

function operation(route: AppRoute, meta: RouteMeta, writer: SchemaWriter): JsonSchema {
  const parameters = [
    ...parametersOf(route.pathParams as z.ZodTypeAny | undefined, 'path', writer, pathNames(route.path)),
    ...parametersOf(route.headers as z.ZodTypeAny | undefined, 'header', writer),
    ...parametersOf(route.query as z.ZodTypeAny | undefined, 'query', writer),
  ];
  const body = 'body' in route ? (route.body as unknown) : undefined;
  const responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, schema]) => [
      status,
      { description: STATUS_CODES[Number(status)] ?? status, content: { [JSON_MEDIA]: { schema: writer.write(schema as z.ZodTypeAny, 'output') } } },
    ]),
  );
  return {
    operationId: meta.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [meta.domain],
    'x-idempotent': meta.idempotent,
    'x-supporting': meta.supporting,
    'x-spec-section': meta.specSection,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(isZod(body) ? { requestBody: { required: true, content: { [JSON_MEDIA]: { schema: writer.write(body, 'input') } } } } : {}),
    responses,
  };
}

function pathNames(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
}

/** One parameter per property of an object schema; a path parameter the schema leaves out is a plain string. */
function parametersOf(schema: z.ZodTypeAny | undefined, where: 'path' | 'header' | 'query', writer: SchemaWriter, names: string[] = []): JsonSchema[] {
  const shape = isZod(schema) ? ((schema as z.AnyZodObject).shape as Record<string, z.ZodTypeAny> | undefined) : undefined;
  const all = [...new Set([...names, ...Object.keys(shape ?? {})])];
  return all.map((name) => {
    const property = shape?.[name];
    const parameter: JsonSchema = { name, in: where, required: where === 'path' || (property !== undefined && !property.isOptional()) };
    parameter.schema = property ? writer.write(property, 'input') : { type: 'string' };
    if (property?.description) parameter.description = property.description;
    return parameter;
  });
}

function isZod(value: unknown): value is z.ZodTypeAny {
  return typeof value === 'object' && value !== null && '_def' in value;
}
