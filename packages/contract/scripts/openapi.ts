import { generateSchema } from '@anatine/zod-openapi';
import { generateOpenApi } from '@ts-rest/open-api';
import { contract, WEBHOOK_EVENT_SCHEMAS } from '../src/index.js';
import type { RouteMeta } from '../src/meta.js';

const TAGS: Record<RouteMeta['domain'], string> = {
  customers: 'Customers and customer sessions',
  checkout: 'Checkout sessions and payment links',
  'payment-methods': 'Enrollment (vaulting) of payment methods',
  payments: 'Payments, refunds, cancel-or-refund, chargeback disputes',
  subscriptions: 'Subscriptions and payment retries',
  marketplace: 'Recipients and split transfers',
  banking: 'Banking entities, onboardings and accounts',
  webhooks: 'Webhook management',
  sandbox: 'Sandbox control API',
};

/** The OpenAPI 3 document of the `/v1` contract: one operationId and one tag per route. */
export function buildOpenApiDocument(): ReturnType<typeof generateOpenApi> {
  const doc = generateOpenApi(
    contract,
    {
      info: {
        title: 'Switchyard payments orchestration API',
        version: '1.0.0',
        description:
          'Customers, checkout sessions, payment links, vaulting, payments, refunds, cancel-or-refund, chargeback disputes, subscriptions, marketplace recipients and transfers, banking entities, onboardings and accounts. Every route needs the public-api-key and private-secret-key headers.',
      },
      servers: [{ url: 'http://localhost:4010', description: 'Switchyard sandbox (default port)' }],
      tags: Object.entries(TAGS).filter(([name]) => name !== 'sandbox').map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          publicApiKey: { type: 'apiKey', in: 'header', name: 'public-api-key' },
          privateSecretKey: { type: 'apiKey', in: 'header', name: 'private-secret-key' },
        },
      },
      security: [{ publicApiKey: [], privateSecretKey: [] }],
    },
    {
      operationMapper: (operation, route) => {
        const meta = route.metadata as RouteMeta;
        return {
          ...operation,
          operationId: meta.operationId,
          tags: [meta.domain],
          'x-idempotent': meta.idempotent,
          'x-supporting': meta.supporting,
          'x-spec-section': meta.specSection,
        };
      },
    },
  );
  // OpenAPI 3.0 has no `webhooks` section: the delivered events are components, listed under x-webhooks.
  const events = Object.entries(WEBHOOK_EVENT_SCHEMAS).map(([name, schema]) => [`WebhookEvent.${name}`, generateSchema(schema)] as const);
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...Object.fromEntries(events) } };
  doc['x-webhooks'] = Object.fromEntries(events.map(([component]) => [component.slice('WebhookEvent.'.length), { $ref: `#/components/schemas/${component}` }]));
  return doc;
}
