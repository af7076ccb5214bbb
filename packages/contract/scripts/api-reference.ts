/**
 * docs/api-reference.md, rendered from the contract itself: routes and their metadata, header,
 * path, query and body fields with every limit zod enforces, success and error statuses and the
 * error code families. `pnpm api-reference` writes it; `api-reference.test.ts` fails when the
 * committed file differs from what the contract renders now.
 */
import type { AppRoute } from '@ts-rest/core';
import { z, type ZodTypeAny } from 'zod';
import * as exported from '../src/index.js';
import { ApiError, contract, ERROR_CODES, IDEMPOTENCY_HEADER, listRoutes, sandboxContract, STATUS_OF, type Domain, type ListedRoute, type RouteMeta } from '../src/index.js';
import { fieldRows, LONG_ENUM, typeName, type FieldOptions, type FieldRow } from './zod-fields.js';

type ErrorFamily = keyof typeof ERROR_CODES;

/** Families every route can answer with: malformed requests, keys, server faults. */
const COMMON_FAMILIES: readonly ErrorFamily[] = ['request', 'auth', 'server'];

/** The family of business codes each domain adds (the families are the groups of ERROR_CODES). */
const DOMAIN_FAMILIES: Record<Domain, readonly ErrorFamily[]> = {
  customers: ['payments'],
  checkout: ['payments'],
  'payment-methods': ['payments'],
  payments: ['payments'],
  subscriptions: ['payments'],
  marketplace: ['marketplace'],
  banking: ['banking'],
  webhooks: ['webhooks'],
  sandbox: ['payments', 'banking'],
};

const DOMAIN_TITLES: Record<Domain, string> = {
  customers: 'Customers',
  checkout: 'Checkout sessions and payment links',
  'payment-methods': 'Payment methods (enrollment)',
  payments: 'Payments',
  subscriptions: 'Subscriptions',
  marketplace: 'Marketplace',
  banking: 'Banking connectivity',
  webhooks: 'Webhooks',
  sandbox: 'Sandbox control API',
};

const AUTH_HEADERS = new Set(['public-api-key', 'private-secret-key']);

export const API_REFERENCE_COMMAND = 'pnpm api-reference';

/** The long enumerations the contract exports by name (ISO country codes), listed once. */
const LONG_ENUMS = Object.entries(exported).flatMap(([name, value]) =>
  value instanceof z.ZodEnum && (value.options as string[]).length > LONG_ENUM ? [{ name, values: value.options as string[] }] : [],
);
const OPTIONS: FieldOptions = {
  enumName: (values) => {
    const found = LONG_ENUMS.find((e) => e.values.length === values.length && e.values.every((v, i) => v === values[i]));
    return found && `[\`${found.name}\`](#${found.name.toLowerCase()})`;
  },
};

/** `/v1/payments/:id` as `/v1/payments/{id}`, the form the OpenAPI document uses. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const anchor = (route: ListedRoute) => route.meta.operationId.toLowerCase();
const code = (s: string) => `\`${s}\``;
/** Table cells hold regex patterns: a pipe would end the cell. */
const cell = (s: string) => s.replace(/\|/g, '\\|');

function fieldTable(rows: FieldRow[]): string[] {
  if (rows.length === 0) return ['None.'];
  return [
    '| Field | Type | Required | Limits |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${code(r.path)} | ${cell(r.type)}${r.nullable ? ' or null' : ''} | ${r.required ? 'yes' : 'no'} | ${cell(r.limits.join('; '))} |`),
  ];
}

/** The rows of a params/query/body schema, without the row of the schema itself. */
function schemaRows(schema: unknown): FieldRow[] {
  return schema ? fieldRows(schema as ZodTypeAny, OPTIONS).slice(1) : [];
}

/** The body row of the schema itself, when it says something (cross-field rules, strictness). */
function bodyNotes(schema: ZodTypeAny): string[] {
  const [root] = fieldRows(schema, OPTIONS);
  return root && root.limits.length > 0 ? [`The body as a whole: ${root.limits.join('; ')}.`, ''] : [];
}

function statuses(route: AppRoute): { success: string[]; errors: string[] } {
  const all = Object.keys(route.responses).sort();
  return { success: all.filter((s) => s.startsWith('2')), errors: all.filter((s) => !s.startsWith('2')) };
}

/** A body field's own validation code (route metadata `bodyFieldCodes`), fields grouped by code. */
function fieldCodeLines(codes: RouteMeta['bodyFieldCodes']): string[] {
  if (!codes) return [];
  const byCode = new Map<string, string[]>();
  for (const [field, errorCode] of Object.entries(codes)) byCode.set(errorCode, [...(byCode.get(errorCode) ?? []), field]);
  return [...byCode].map(([errorCode, fields]) => `- An invalid ${fields.map(code).join(', ')} answers ${code(errorCode)} (any other invalid field: the family's validation code)`);
}

function renderRoute(entry: ListedRoute): string[] {
  const { route, meta } = entry;
  const headers = schemaRows((route as { headers?: unknown }).headers);
  const idempotency = headers.find((h) => h.path === IDEMPOTENCY_HEADER);
  const auth = headers.filter((h) => AUTH_HEADERS.has(h.path));
  const { success, errors } = statuses(route);
  const families = [...COMMON_FAMILIES, ...DOMAIN_FAMILIES[meta.domain]];
  const lines = [
    `### <a id="${anchor(entry)}"></a>${route.summary ?? meta.operationId}`,
    '',
    `\`${route.method} ${openApiPath(route.path)}\``,
    '',
    `- operationId: ${code(meta.operationId)}`,
    `- Spec: ${meta.specSection ? `§${meta.specSection}` : 'supporting route (not in the spec; modelled on the upstream service)'}`,
    `- Authentication: ${auth.length > 0 ? auth.map((h) => code(h.path)).join(' and ') : 'none'}`,
    `- Idempotency: ${idempotency ? `${code(IDEMPOTENCY_HEADER)} ${idempotency.required ? 'required' : 'optional'}${idempotency.limits.length > 0 ? ` (${idempotency.limits.join('; ')})` : ''}` : `no ${code(IDEMPOTENCY_HEADER)}`}`,
    `- Success: ${success.map((s) => `${s} (${typeName(route.responses[Number(s)] as ZodTypeAny)})`).join(', ')}`,
    `- Errors: ${errors.join(', ')}, in the error shape; codes from the ${families.map(code).join(', ')} families`,
    ...fieldCodeLines(meta.bodyFieldCodes),
    '',
  ];
  if (route.description) lines.push(route.description, '');
  const other = headers.filter((h) => !AUTH_HEADERS.has(h.path) && h.path !== IDEMPOTENCY_HEADER);
  if (other.length > 0) lines.push('Other headers:', '', ...fieldTable(other), '');
  const pathParams = schemaRows(route.pathParams);
  if (pathParams.length > 0) lines.push('Path parameters:', '', ...fieldTable(pathParams), '');
  if (route.query) lines.push('Query parameters:', '', ...fieldTable(schemaRows(route.query)), '');
  if ('body' in route) {
    const { body } = route;
    const rows = schemaRows(body);
    if (rows.length > 0) lines.push('Body:', '', ...bodyNotes(body as ZodTypeAny), ...fieldTable(rows), '');
    else lines.push('Body: none.', '');
  }
  return lines;
}

function renderDomains(routes: ListedRoute[]): string[] {
  const domains = [...new Set(routes.map((r) => r.meta.domain))];
  return domains.flatMap((domain) => [
    `## ${DOMAIN_TITLES[domain]}`,
    '',
    ...routes.filter((r) => r.meta.domain === domain).flatMap(renderRoute),
  ]);
}

function renderIndex(routes: ListedRoute[]): string[] {
  return [
    '| Method | Path | operationId | Summary | Spec | Idempotency key |',
    '|---|---|---|---|---|---|',
    ...routes.map(
      (r) =>
        `| ${r.route.method} | ${code(openApiPath(r.route.path))} | [${r.meta.operationId}](#${anchor(r)}) | ${r.route.summary ?? ''} | ${r.meta.specSection ? `§${r.meta.specSection}` : 'supporting'} | ${r.meta.idempotent ? 'required' : 'no'} |`,
    ),
  ];
}

/** The whole of docs/api-reference.md. */
export function renderApiReference(): string {
  const api = listRoutes(contract);
  const sandbox = listRoutes(sandboxContract);
  const lines = [
    '# API reference',
    '',
    `<!-- Generated from packages/contract by \`${API_REFERENCE_COMMAND}\` (scripts/api-reference.ts). Do not edit by hand: a test fails when this file differs from the contract. -->`,
    '',
    'Every route of the `/v1` API and of the sandbox control API, read from the contract',
    '(`@switchyard/contract`): the same zod schemas validate requests in the sandbox and type the',
    'client. Response bodies are described field by field in the OpenAPI document',
    '([`packages/contract/openapi.json`](../packages/contract/openapi.json)). Decisions where the',
    'specification is silent are in the other files of this folder; the sandbox\'s behaviour is in',
    '[sandbox.md](sandbox.md).',
    '',
    '## Conventions',
    '',
    '- Requests and responses are JSON. Amounts are decimals in major units.',
    `- Every \`/v1\` route needs the ${[...AUTH_HEADERS].map(code).join(' and ')} headers.`,
    `- Routes whose idempotency key is required need ${code(IDEMPOTENCY_HEADER)}; the request is processed once however often it is retried with that key (replays, conflicts and waits: [sandbox-testing.md](sandbox-testing.md#idempotency)).`,
    '- Fields: `a.b` is field `b` of object `a`; `a[]` an item of array `a`; `a.<key>` any key of map `a`. A field that is not required may be left out; a required field inside an optional object is required when that object is sent; "or null" means `null` is accepted too.',
    '- Limits are enforced; a request that breaks one gets a 400 whose `messages` name the field, for example `body.amount.value: must be a multiple of 0.0001 (at most 4 decimals)`. Which condition gives which status and code: [sandbox-errors.md](sandbox-errors.md#errors).',
    '',
    '## Errors',
    '',
    'Every failure has one shape:',
    '',
    ...fieldTable(schemaRows(ApiError)),
    '',
    'Error codes, by family, each with the HTTP status it answers with (`STATUS_OF`). Each route lists the families it answers from; codes outside this list are still valid errors.',
    '',
    '| Family | Codes (status) |',
    '|---|---|',
    ...Object.entries(ERROR_CODES).map(([family, codes]) => `| ${code(family)} | ${codes.map((c) => `${code(c)} (${STATUS_OF[c]})`).join(', ')} |`),
    '',
    '## Routes',
    '',
    ...renderIndex(api),
    '',
    'Sandbox control API (only on the sandbox):',
    '',
    ...renderIndex(sandbox),
    '',
    ...renderDomains(api),
    ...renderDomains(sandbox),
    '## Enumerations',
    '',
    ...LONG_ENUMS.flatMap((e) => [`### <a id="${e.name.toLowerCase()}"></a>${e.name}`, '', e.values.map(code).join(', '), '']),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
