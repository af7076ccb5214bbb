import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { Currency, ISO_CURRENCIES } from '../src/index.js';
import { buildOpenApiDocument } from './openapi.js';

const committedPath = fileURLToPath(new URL('../openapi.json', import.meta.url));
const committed = JSON.parse(readFileSync(committedPath, 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; parameters?: { in: string; name: string; required?: boolean }[]; responses: Record<string, unknown> }>>;
};

describe('openapi.json', () => {
  it('is up to date with the contract (run `pnpm openapi` to regenerate)', () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('is a valid OpenAPI document according to an independent validator', async () => {
    const result = await new Validator().validate(structuredClone(committed) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it.each([
    ['/v1/customers/sessions/{customer_session}/payment-methods', 'post', '201', true],
    ['/v1/payments/{id}/transactions/{transaction_id}/refund', 'post', '200', true],
    ['/v1/customers/{customer_id}/payment-methods', 'post', '200', true],
    ['/v1/banking/entities/{entity_id}/onboardings', 'post', '201', true],
    ['/v1/split-marketplace/transfers/{transfer_id}/reverse', 'post', '200', true],
    ['/v1/payments/{payment_id}/cancel-or-refund', 'post', '201', true],
    ['/v1/recipients', 'post', '201', false],
    ['/v1/banking/entities', 'post', '201', true],
    ['/v1/payments/{payment_id}/transactions/{transaction_id}/dispute', 'post', '200', true],
    ['/v1/checkout/sessions', 'post', '200', false],
    ['/v1/customers', 'post', '201', false],
    ['/v1/payment-links', 'post', '200', false],
    ['/v1/subscriptions/{id}/retry', 'post', '200', false],
    ['/v1/banking/accounts/{account_id}', 'patch', '200', false],
  ] as const)('documents %s %s with %s and its headers', (path, method, status, idempotent) => {
    const op = committed.paths[path]?.[method];
    expect(op, `${method} ${path}`).toBeDefined();
    if (!op) return;
    expect(Object.keys(op.responses).filter((s) => s.startsWith('2'))).toEqual([status]);
    const required = (op.parameters ?? []).filter((p) => p.in === 'header' && p.required).map((p) => p.name);
    expect(required).toEqual(expect.arrayContaining(['public-api-key', 'private-secret-key']));
    expect(required.includes('x-idempotency-key')).toBe(idempotent);
  });

  // Every currency a request names is checked against ISO_CURRENCIES; the document keeps the
  // 3-letter pattern and says so in a description, rather than a 155-value enum at each of them.
  it('documents every currency of a request body as a pattern and the ISO 4217 description, with no enum', () => {
    const found: string[] = [];
    const components = (committed as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas;
    const resolve = (node: unknown): unknown => {
      const ref = (node as { $ref?: string } | null)?.$ref;
      return typeof ref === 'string' ? resolve(components[ref.slice('#/components/schemas/'.length)]) : node;
    };
    const entered = new Set<unknown>();
    const walk = (node: unknown, path: string): void => {
      const target = resolve(node);
      if (target === null || typeof target !== 'object' || entered.has(target)) return;
      entered.add(target);
      if (Array.isArray(target)) target.forEach((item, i) => walk(item, `${path}[${i}]`));
      for (const [key, value] of Object.entries(target)) {
        const field = resolve(value);
        if (/currency$/.test(key) && field && typeof field === 'object' && 'type' in field) {
          found.push(`${path}.${key}`);
          expect(field, `${path}.${key}`).toMatchObject({ type: 'string', pattern: '^[A-Z]{3}$', description: Currency.description });
          expect(field, `${path}.${key}`).not.toHaveProperty('enum');
        }
        walk(value, `${path}.${key}`);
      }
    };
    for (const [path, methods] of Object.entries(committed.paths)) {
      for (const [method, op] of Object.entries(methods)) walk((op as { requestBody?: unknown }).requestBody, `${method} ${path}`);
    }
    expect(found.length).toBeGreaterThan(5);
    expect(JSON.stringify(committed)).not.toContain(JSON.stringify(ISO_CURRENCIES));
  });
});
