/**
 * Field-by-field comparison of the contract's request and response bodies with the upstream
 * OpenAPI files (the upstream reference) for the 14 spec endpoints. Every upstream field is
 * either modelled or covered by an entry of EXCEPTIONS with its reason; the test enforces it and
 * the generated table in docs/contract-vs-upstream.md is kept in sync by `pnpm upstream:doc`.
 */
import { readFileSync } from 'node:fs';
import { REFERENCE_DIR, resolveRef as resolve, serviceNameFor } from '@switchyard/tooling/upstream';
import { buildOpenApiDocument } from './openapi.js';

type Json = Record<string, unknown>;
type Side = 'request' | 'response';

const UPSTREAM_DIR = `${REFERENCE_DIR}/openapi`;

export const ENDPOINTS = [
  { section: '4.1', method: 'post', path: '/customers/sessions/{customer_session}/payment-methods', file: 'payment-methods-checkout/enroll-payment-method-checkout.json', status: '201' },
  { section: '4.2', method: 'post', path: '/payments/{id}/transactions/{transaction_id}/refund', file: 'payments/refund-payment.json', status: '200' },
  { section: '4.3', method: 'post', path: '/customers/{customer_id}/payment-methods', file: 'payment-methods-direct-workflow/enroll-payment-method-api.json', status: '200' },
  { section: '4.4', method: 'post', path: '/banking/entities/{entity_id}/onboardings', file: 'banking-connectivity/entity-onboarding-banking-connectivity/create-entity-onboarding.json', status: '201' },
  { section: '4.5', method: 'post', path: '/split-marketplace/transfers/{transfer_id}/reverse', file: 'transfers/reverse-standalone-transfer.json', status: '200' },
  { section: '4.6', method: 'post', path: '/payments/{payment_id}/cancel-or-refund', file: 'payments/cancel-or-refund-a-payment.json', status: '201' },
  { section: '4.7', method: 'post', path: '/recipients', file: 'recipients-for-marketplace/create-recipient-1.json', status: '201' },
  { section: '4.8', method: 'post', path: '/banking/entities', file: 'banking-connectivity/entities-banking-connectivity/create-entity.json', status: '201' },
  { section: '4.9', method: 'post', path: '/payments/{payment_id}/transactions/{transaction_id}/dispute', file: 'payments/disputes.json', status: '200' },
  { section: '4.10', method: 'post', path: '/checkout/sessions', file: 'checkout-sessions/create-checkout-session.json', status: '200' },
  { section: '4.11', method: 'post', path: '/customers', file: 'customers/create-customer.json', status: '201' },
  { section: '4.12', method: 'post', path: '/payment-links', file: 'payment-links/create-payment-link.json', status: '200' },
  { section: '4.13', method: 'post', path: '/subscriptions/{id}/retry', file: 'subscriptions/retry-subscription.json', status: '200' },
  { section: '4.14', method: 'patch', path: '/banking/accounts/{account_id}', file: 'banking-connectivity/accounts/update-account-banking.json', status: '200' },
] as const;

export interface Exception {
  section: string;
  side: Side;
  /** A field path, or a prefix ending in `.*` that covers everything below it. */
  field: string;
  reason: string;
}

export const EXCEPTIONS: Exception[] = [
  {
    section: '4.3',
    side: 'request',
    field: 'card_data.card_pin',
    reason: 'Not modelled on purpose: a PIN is not an input to vaulting and must never be accepted, stored or logged (PCI DSS). Unknown keys are dropped by validation.',
  },
  {
    section: '4.2',
    side: 'response',
    field: 'transactions.provider_data.raw_response.*',
    reason: "raw_response is the provider's own payload: typed as any JSON (spec §2.5: fields inside objects typed only as object or any are not shown).",
  },
  {
    section: '4.3',
    side: 'response',
    field: 'provider_data.*',
    reason: "The provider's raw request and response: an open object, never interpreted by clients.",
  },
  {
    section: '4.3',
    side: 'response',
    field: 'verify.payment.*',
    reason: 'The spec types verify.payment as nullable without a shape (§2.4); modelled after upstream\'s "With Verify" example (VerifyPayment). Left out: the provider\'s own fields (account_id, sub_status, status_detail, raw_response, raw_request, third_party_transaction_id), which the sandbox has no provider to fill.',
  },
  {
    section: '4.6',
    side: 'response',
    field: 'payment.additional_data.*',
    reason: 'additional_data in a payment echoes what the merchant sent; each group (airline, order, seller_details, transportations) is validated on the request and returned as an open object, so new upstream sub-fields do not break clients.',
  },
  {
    section: '4.9',
    side: 'response',
    field: 'additional_data.*',
    reason: 'Same as 4.6: additional_data groups are echoed as open objects.',
  },
  {
    section: '4.12',
    side: 'response',
    field: 'additional_data.*',
    reason: 'Same as 4.6: additional_data groups (including device and payer_risk_data) are echoed as open objects.',
  },
];

/** Every property path below a schema: `a.b`, `list[].c`. */
export function flattenFields(doc: Json, schema: unknown, prefix = '', depth = 0, out = new Set<string>()): Set<string> {
  const s = resolve(doc, schema);
  if (depth > 8) return out;
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const sub of (s[key] as unknown[] | undefined) ?? []) flattenFields(doc, sub, prefix, depth + 1, out);
  }
  if (s.items) flattenFields(doc, s.items, `${prefix}[]`, depth + 1, out);
  for (const [name, sub] of Object.entries((s.properties as Json | undefined) ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.add(path);
    flattenFields(doc, sub, path, depth + 1, out);
  }
  return out;
}

function bodySchema(doc: Json, operation: Json, side: Side, status: string): unknown {
  if (side === 'request') {
    const body = operation.requestBody ? resolve(doc, operation.requestBody) : undefined;
    return ((body?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema ?? {};
  }
  const responses = operation.responses as Json;
  const chosen = responses[status] ?? Object.entries(responses).find(([code]) => code.startsWith('2'))?.[1];
  const response = chosen ? resolve(doc, chosen) : {};
  return ((response.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema ?? {};
}

/** Our name for a brand-named upstream field path (spec §1 convention 5), if our contract has it. */
function renamedTo(field: string, ours: Set<string>): string | undefined {
  const [head = '', ...rest] = field.split('.');
  const service = serviceNameFor(head);
  const candidate = service && [service, ...rest].join('.');
  return candidate && ours.has(candidate) ? candidate : undefined;
}

export interface SideComparison {
  upstream: number;
  modelled: number;
  renamed: string[];
  excepted: { field: string; reason: string }[];
  uncovered: string[];
  added: string[];
}

export interface EndpointComparison {
  section: string;
  method: string;
  path: string;
  request: SideComparison;
  response: SideComparison;
}

export function compareWithUpstream(): EndpointComparison[] {
  const ours = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Json;
  return ENDPOINTS.map((endpoint) => {
    const upstreamDoc = JSON.parse(readFileSync(`${UPSTREAM_DIR}/${endpoint.file}`, 'utf8')) as Json;
    const upstreamOp = ((upstreamDoc.paths as Json)[endpoint.path] as Json)[endpoint.method] as Json;
    const ourOp = ((ours.paths as Json)[`/v1${endpoint.path}`] as Json)[endpoint.method] as Json;
    const compare = (side: Side): SideComparison => {
      const upstream = flattenFields(upstreamDoc, bodySchema(upstreamDoc, upstreamOp, side, endpoint.status));
      const modelled = flattenFields(ours, bodySchema(ours, ourOp, side, endpoint.status));
      const result: SideComparison = { upstream: upstream.size, modelled: 0, renamed: [], excepted: [], uncovered: [], added: [] };
      for (const field of [...upstream].sort()) {
        if (modelled.has(field)) {
          result.modelled += 1;
          continue;
        }
        const renamed = renamedTo(field, modelled);
        if (renamed) {
          result.renamed.push(renamed);
          continue;
        }
        const exception = EXCEPTIONS.find(
          (e) =>
            e.section === endpoint.section &&
            e.side === side &&
            (e.field === field || (e.field.endsWith('.*') && field.startsWith(e.field.slice(0, -1)))),
        );
        if (exception) result.excepted.push({ field, reason: exception.reason });
        else result.uncovered.push(field);
      }
      result.added = [...modelled].filter((f) => !upstream.has(f) && !result.renamed.includes(f)).sort();
      return result;
    };
    return { section: endpoint.section, method: endpoint.method.toUpperCase(), path: endpoint.path, request: compare('request'), response: compare('response') };
  });
}

export const GENERATED_START = '<!-- generated:upstream-comparison:start -->';
export const GENERATED_END = '<!-- generated:upstream-comparison:end -->';

/** The generated part of docs/contract-vs-upstream.md. */
export function renderComparison(rows: EndpointComparison[]): string {
  const lines: string[] = [
    GENERATED_START,
    '',
    '| § | Endpoint | Request: upstream fields / modelled / renamed / not modelled | Response: upstream fields / modelled / renamed / not modelled |',
    '|---|---|---|---|',
  ];
  const cell = (s: SideComparison) => `${s.upstream} / ${s.modelled} / ${s.renamed.length} / ${s.excepted.length + s.uncovered.length}`;
  for (const row of rows) lines.push(`| ${row.section} | \`${row.method} /v1${row.path}\` | ${cell(row.request)} | ${cell(row.response)} |`);
  lines.push('', '### Renamed fields (brand-neutral naming, spec §1 convention 5)', '');
  for (const row of rows) {
    for (const side of ['request', 'response'] as const) {
      for (const f of row[side].renamed) lines.push(`- ${row.section} ${side}: \`${f}\` (the upstream field carried the service brand)`);
    }
  }
  lines.push('', '### Upstream fields not modelled, with the reason', '');
  for (const exception of EXCEPTIONS) {
    const covered = rows
      .filter((r) => r.section === exception.section)
      .flatMap((r) => r[exception.side].excepted.map((e) => e.field))
      .filter((f) => f === exception.field || (exception.field.endsWith('.*') && f.startsWith(exception.field.slice(0, -1))));
    lines.push(`- **${exception.section} ${exception.side} \`${exception.field}\`** (${covered.length} field(s)): ${exception.reason}`);
  }
  lines.push('', '### Fields we model that the upstream file does not list', '');
  for (const row of rows) {
    for (const side of ['request', 'response'] as const) {
      const added = row[side].added;
      if (added.length === 0) continue;
      const top = [...new Set(added.map((f) => f.split('.')[0]))];
      lines.push(`- ${row.section} ${side} (${added.length}): ${top.map((f) => `\`${f}\``).join(', ')}`);
    }
  }
  lines.push('', GENERATED_END);
  return lines.join('\n');
}
