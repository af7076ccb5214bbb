import { contract } from '@switchyard/contract';
import { fixtures as examples } from '@switchyard/contract/fixtures';
import { listen } from '@switchyard/tooling/test-server';
import { answerBadGateway } from './bad-gateway.js';

/** A request as the proxy forwards it. */
export interface ProxyRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** An answer as the proxy returns it; `body` is the parsed JSON, or the text when it is not JSON. */
export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

type Upstream = (req: ProxyRequest) => Promise<ProxyResponse>;

/** How a fault bends a correct server: the request it forwards, the answer it returns, or both. */
export interface Bend {
  request?: (req: ProxyRequest, upstream: Upstream) => ProxyRequest | Promise<ProxyRequest>;
  response?: (res: ProxyResponse, req: ProxyRequest, upstream: Upstream) => ProxyResponse | Promise<ProxyResponse>;
  /** A webhook delivery on its way from the server to the URL the caller registered. */
  delivery?: (d: { headers: Record<string, string>; body: string }) => { headers: Record<string, string>; body: string };
}

/** Where the proxy takes the deliveries of webhooks registered through it, to pass them on bent. */
const DELIVER_PATH = '/__deliver';

/** A webhook registration whose URL points at the proxy's delivery path, which passes deliveries on to the original URL. */
const throughProxy =
  (self: () => string): Bend['request'] =>
  (req) => {
    const body = obj(json(req.body));
    if (!matches(req, 'POST', /^\/v1\/webhooks$/) || typeof body?.url !== 'string') return req;
    return withBody(req, { ...body, url: `${self()}${DELIVER_PATH}?to=${encodeURIComponent(body.url)}` });
  };

const json = (text: string | undefined): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};
const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
const codeOf = (res: ProxyResponse) => obj(res.body)?.code;
const isError = (res: ProxyResponse) => res.status >= 400 && typeof codeOf(res) === 'string';
const matches = (req: ProxyRequest, method: string, pattern: RegExp) => req.method === method && pattern.test(req.path);
const withBody = (req: ProxyRequest, body: unknown): ProxyRequest => ({ ...req, body: JSON.stringify(body) });
const REFUND = /^\/v1\/payments\/[^/]+\/transactions\/[^/]+\/refund$/;

/** An error answer with another status and/or code on the requests `when` selects. */
const rewriteError =
  (when: (req: ProxyRequest, res: ProxyResponse) => boolean, change: Partial<{ status: number; code: string; messages: string[]; http_code: number }>): Bend['response'] =>
  (res, req) => {
    if (!when(req, res)) return res;
    const { status, ...body } = change;
    return { ...res, status: status ?? res.status, body: { ...obj(res.body), ...body } };
  };

/** A successful answer's body, changed by `edit`, on the requests `when` selects. */
const editBody =
  (when: (req: ProxyRequest) => boolean, edit: (body: Record<string, unknown>) => void): Bend['response'] =>
  (res, req) => {
    const body = obj(res.body);
    if (!when(req) || res.status >= 300 || !body) return res;
    const copy = structuredClone(body);
    edit(copy);
    return { ...res, body: copy };
  };

/** A request body that a correct server refuses, "repaired" into one it accepts, as a lenient server would read it. */
const repairBody =
  (when: (req: ProxyRequest) => boolean, repair: (body: unknown) => unknown): Bend['request'] =>
  (req) => {
    if (!when(req)) return req;
    const body = json(req.body);
    if (body === undefined) return req;
    const repaired = repair(structuredClone(body));
    return repaired === undefined ? req : withBody(req, repaired);
  };

const PAN = '4111111111111111';

/** Every fault, one at a time, each a bug a staging deployment of a payments API has been seen to have. */
function faultsOf(self: () => string = () => '') {
  /** Idempotency keys the proxy saw, with the body and the resource of their first request. */
  const seen = new Map<string, { body: string | undefined; id?: string }>();
  /** Idempotency keys of payments the proxy has sent on (concurrent_create_duplicated). */
  const inFlight = new Set<string>();
  /** Payments captured through the proxy (capture_not_applied). */
  const captured = new Set<string>();
  const faults = {
    // The first six, from the original mutation suite.
    wrong_status: { response: (res, req) => (matches(req, 'POST', /^\/v1\/customers$/) && res.status === 201 ? { ...res, status: 200 } : res) },
    missing_field: { response: editBody((req) => matches(req, 'GET', /^\/v1\/customers\/[^/]+$/), (b) => delete b.created_at) },
    wrong_enum: { response: editBody((req) => matches(req, 'POST', /^\/v1\/recipients$/), (b) => (b.national_entity = 'PERSON')) },
    over_refund: { response: rewriteError((req, res) => REFUND.test(req.path) && res.status === 400 && ['INVALID_AMOUNT', 'INVALID_STATE'].includes(codeOf(res) as string), { status: 200 }) },
    ignore_auth: {
      request: (req) => {
        const h = req.headers;
        if (h['public-api-key'] && h['private-secret-key'] && !h['public-api-key'].includes('wrong')) return req;
        return { ...req, headers: { ...h, 'public-api-key': 'sandbox_pk_demo_switchyard', 'private-secret-key': 'sandbox_sk_demo_switchyard' } };
      },
    },
    ignore_idempotency: { request: (req) => (req.headers['x-idempotency-key'] ? { ...req, headers: { ...req.headers, 'x-idempotency-key': crypto.randomUUID() } } : req) },

    // Family 1: the exact status and code of each negative case.
    transfer_404_as_400: { response: rewriteError((req, res) => req.path.startsWith('/v1/split-marketplace/') && res.status === 404, { status: 400 }) },
    banking_404_as_400: { response: rewriteError((req, res) => req.path.startsWith('/v1/banking/') && res.status === 404, { status: 400, http_code: 400 }) },
    webhook_404_as_400: { response: rewriteError((req, res) => req.path.startsWith('/v1/webhooks/') && res.status === 404, { status: 400 }) },
    payment_not_found_as_404: { response: rewriteError((req, res) => req.path.startsWith('/v1/payments/') && codeOf(res) === 'PAYMENT_NOT_FOUND', { status: 404 }) },
    not_found_generic_code: { response: rewriteError((req, res) => REFUND.test(req.path) && /NOT_FOUND$/.test(String(codeOf(res))), { code: 'INVALID_REQUEST' }) },
    validation_as_422: { response: rewriteError((req, res) => matches(req, 'POST', /^\/v1\/customers$/) && codeOf(res) === 'INVALID_REQUEST', { status: 422 }) },
    validation_as_server_error_code: { response: rewriteError((req, res) => matches(req, 'POST', /^\/v1\/recipients$/) && codeOf(res) === 'INVALID_REQUEST', { code: 'INTERNAL_ERROR' }) },
    banking_validation_generic_code: { response: rewriteError((req, res) => req.path.startsWith('/v1/banking/entities') && codeOf(res) === 'VALIDATION_ERROR', { code: 'INVALID_REQUEST' }) },
    banking_http_code_mismatch: { response: rewriteError((req, res) => req.path.startsWith('/v1/banking/entities') && codeOf(res) === 'VALIDATION_ERROR', { http_code: 422 }) },
    missing_keys_as_403: { response: rewriteError((req, res) => req.path.startsWith('/v1/customers/') && res.status === 401, { status: 403, code: 'AUTHORIZATION_REQUIRED' }) },
    missing_keys_wrong_code: { response: rewriteError((req, res) => req.path === '/v1/payments' && res.status === 401, { code: 'INVALID_REQUEST' }) },
    put_as_404: { response: rewriteError((req, res) => req.method === 'PUT' && res.status === 405, { status: 404, code: 'NOT_FOUND' }) },
    missing_idempotency_key_accepted: { request: (req) => (REFUND.test(req.path) && !req.headers['x-idempotency-key'] ? { ...req, headers: { ...req.headers, 'x-idempotency-key': crypto.randomUUID() } } : req) },

    // Family 2: negative data, at every depth, and the state it must leave alone.
    nested_amount_not_positive: {
      request: repairBody(
        (req) => REFUND.test(req.path),
        (b) => {
          const amount = obj(obj(b)?.amount);
          if (amount && typeof amount.value === 'number' && amount.value <= 0) amount.value = 1;
          return b;
        },
      ),
    },
    required_field_defaulted: {
      request: repairBody(
        (req) => matches(req, 'POST', /^\/v1\/checkout\/sessions$/),
        (b) => {
          const body = obj(b);
          if (body && body.payment_description === undefined) body.payment_description = 'defaulted';
          return b;
        },
      ),
    },
    metadata_over_limit_truncated: {
      request: repairBody(
        (req) => matches(req, 'POST', /^\/v1\/customers$/),
        (b) => {
          const body = obj(b);
          if (body && Array.isArray(body.metadata)) body.metadata = body.metadata.slice(0, 50);
          return b;
        },
      ),
    },
    long_string_truncated: {
      request: repairBody(
        (req) => matches(req, 'POST', /^\/v1\/payment-links$/),
        (b) => {
          const body = obj(b);
          if (body && typeof body.description === 'string') body.description = body.description.slice(0, 255);
          return b;
        },
      ),
    },
    enum_defaulted: {
      request: repairBody(
        (req) => matches(req, 'POST', /^\/v1\/payments\/[^/]+\/cancel-or-refund$/),
        (b) => {
          const body = obj(b);
          if (body && body.reason === 'NOT_IN_THE_ENUM') body.reason = 'REQUESTED_BY_CUSTOMER';
          return b;
        },
      ),
    },
    malformed_json_server_error: {
      response: (res, req) => (req.method === 'POST' && req.path === '/v1/customers' && req.body !== undefined && json(req.body) === undefined ? { ...res, status: 500, body: { code: 'INTERNAL_ERROR', messages: ['Unexpected token'] } } : res),
    },
    array_body_unwrapped: {
      request: (req) => {
        const body = json(req.body);
        return matches(req, 'POST', /^\/v1\/customers$/) && Array.isArray(body) && body.length === 1 ? withBody(req, body[0]) : req;
      },
    },
    invalid_request_applied_then_refused: {
      // A refund the contract refuses is still applied (a valid refund of 1 goes through first), then refused.
      request: async (req, upstream) => {
        const body = json(req.body);
        if (REFUND.test(req.path) && body !== undefined && !contract.payments.refund.body.safeParse(body).success) {
          await upstream({ ...req, headers: { ...req.headers, 'x-idempotency-key': crypto.randomUUID() }, body: JSON.stringify({ merchant_reference: 'leak', amount: { currency: 'ARS', value: 0.01 } }) });
        }
        return req;
      },
    },
    non_uuid_key_accepted: {
      request: (req) => {
        const key = req.headers['x-idempotency-key'];
        return req.path.startsWith('/v1/banking/') && key && !/^[0-9a-f-]{36}$/i.test(key) ? { ...req, headers: { ...req.headers, 'x-idempotency-key': crypto.randomUUID() } } : req;
      },
    },

    // Family 3: strict schemas at every depth, UTC timestamps, error messages, the request id.
    nested_undocumented_field: { response: editBody((req) => matches(req, 'GET', /^\/v1\/payments\/[^/]+$/), (b) => ((obj(b.amount) as Record<string, unknown>).internal_fee = 0.3)) },
    undocumented_field_in_array_item: {
      response: editBody(
        (req) => matches(req, 'POST', /^\/v1\/customers$/),
        (b) => {
          const first = Array.isArray(b.metadata) ? obj(b.metadata[0]) : undefined;
          if (first) first.internal_id = 7;
        },
      ),
    },
    timestamp_with_offset: { response: editBody((req) => matches(req, 'GET', /^\/v1\/customers\/[^/]+$/), (b) => (b.updated_at = String(b.updated_at).replace(/(\.\d+)?Z$/, '+00:00'))) },
    nested_timestamp_local_time: {
      response: editBody(
        (req) => matches(req, 'GET', /^\/v1\/payments\/[^/]+$/),
        (b) => {
          // The retrieve lists the payment's transactions: shift the first one's time.
          const t = obj(Array.isArray(b.transactions) ? b.transactions[0] : b.transactions);
          if (t && typeof t.created_at === 'string') t.created_at = t.created_at.replace(/(\.\d+)?Z$/, '-03:00');
        },
      ),
    },
    empty_error_messages: { response: rewriteError((req, res) => matches(req, 'POST', /^\/v1\/customers$/) && res.status === 400, { messages: [] }) },
    messages_without_field: { response: rewriteError((req, res) => matches(req, 'POST', /^\/v1\/payments$/) && codeOf(res) === 'INVALID_REQUEST', { messages: ['the request is invalid'] }) },
    no_request_id: { response: (res) => ({ ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k !== 'x-request-id')) }) },
    request_id_not_echoed: { response: (res) => ({ ...res, headers: { ...res.headers, 'x-request-id': crypto.randomUUID() } }) },
    error_as_text: { response: (res, req) => (matches(req, 'POST', /^\/v1\/customers$/) && isError(res) ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain' } } : res) },

    // Family 4: idempotency across state changes and body mismatch.
    replay_returns_current_state: {
      response: async (res, req, upstream) => {
        const key = req.headers['x-idempotency-key'];
        if (!matches(req, 'POST', /^\/v1\/payments$/) || !key) return res;
        const first = seen.get(key);
        const id = obj(res.body)?.id;
        if (!first && typeof id === 'string') seen.set(key, { body: req.body, id });
        if (!first?.id) return res;
        const current = await upstream({ ...req, method: 'GET', path: `/v1/payments/${first.id}`, body: undefined });
        return { ...current, status: res.status };
      },
    },
    same_key_other_body_creates: {
      request: (req) => {
        const key = req.headers['x-idempotency-key'];
        if (!matches(req, 'POST', /^\/v1\/payments$/) || !key) return req;
        const first = seen.get(key);
        if (!first) seen.set(key, { body: req.body });
        return first && first.body !== req.body ? { ...req, headers: { ...req.headers, 'x-idempotency-key': crypto.randomUUID() } } : req;
      },
    },

    // Family 5: deep masking.
    card_number_with_spaces: { response: editBody((req) => matches(req, 'GET', /^\/v1\/payments\/[^/]+$/), (b) => (b.description = `paid with ${PAN.replace(/(\d{4})(?=\d)/g, '$1 ')}`)) },
    card_number_with_dashes_in_error: {
      response: rewriteError((req, res) => matches(req, 'POST', /^\/v1\/payments$/) && res.status === 400 && (req.body ?? '').includes(PAN), { messages: [`card ${PAN.replace(/(\d{4})(?=\d)/g, '$1-')} is invalid`] }),
    },
    security_code_deep: {
      response: editBody(
        (req) => matches(req, 'POST', /^\/v1\/payments$/),
        (b) => {
          const card = obj(obj(obj(obj(b.payment_method)?.payment_method_detail)?.card)?.card_data);
          if (card) card.security_code = '123';
        },
      ),
    },

    // Family 6: the flows' own answers pass the per-response checks.
    flow_full_refund_wrong_status: { response: (res, req) => (REFUND.test(req.path) && res.status === 200 && obj(json(req.body))?.amount === undefined ? { ...res, status: 202 } : res) },
    flow_refund_via_cancel_as_text: {
      response: (res, req) => (matches(req, 'POST', /\/cancel-or-refund$/) && res.status < 300 && obj(res.body)?.type === 'REFUND' ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain' } } : res),
    },
    flow_full_reversal_undocumented_field: {
      response: editBody(
        (req) => matches(req, 'POST', /^\/v1\/split-marketplace\/transfers\/[^/]+\/reverse$/) && obj(json(req.body))?.amount === undefined,
        (b) => (b.reversal_batch = 'b-1'),
      ),
    },

    // Family 8: a valid request using the optional fields, and the spec's business rules.
    optional_field_rejected: {
      // Refuses a customer sent with any top-level field the minimal example leaves out, naming it, as a server that never implemented it would.
      response: (res, req) => {
        const extra = Object.keys(obj(json(req.body)) ?? {}).filter((k) => !(k in examples.createCustomer()));
        return matches(req, 'POST', /^\/v1\/customers$/) && extra.length > 0 ? { ...res, status: 400, body: { code: 'INVALID_REQUEST', messages: [`${extra[0]}: is not supported`] } } : res;
      },
    },
    duplicate_customer_accepted: {
      response: async (res, req, upstream) => {
        const body = obj(json(req.body));
        if (!matches(req, 'POST', /^\/v1\/customers$/) || codeOf(res) !== 'CUSTOMER_ID_DUPLICATED' || !body) return res;
        return upstream(withBody(req, { ...body, merchant_customer_id: `${String(body.merchant_customer_id)}-again` }));
      },
    },
    evidence_on_purchase_accepted: {
      response: async (res, req, upstream) => {
        const payment = /^\/v1\/payments\/([^/]+)\/transactions\/[^/]+\/dispute$/.exec(req.path)?.[1];
        if (req.method !== 'POST' || !payment || codeOf(res) !== 'INVALID_TRANSACTION') return res;
        return { ...(await upstream({ ...req, method: 'GET', path: `/v1/payments/${payment}`, body: undefined })), status: 200 };
      },
    },

    // Family 7: webhook deliveries, checked by the suite's receiver.
    webhook_signature_hex: {
      request: throughProxy(self),
      delivery: (d) => ({ ...d, headers: { ...d.headers, 'x-hmac-signature': Buffer.from(d.headers['x-hmac-signature'] ?? '', 'base64').toString('hex') } }),
    },
    webhook_signed_before_reserialising: { request: throughProxy(self), delivery: (d) => ({ ...d, body: JSON.stringify(JSON.parse(d.body), null, 2) }) },
    webhook_envelope_undocumented_field: { request: throughProxy(self), delivery: (d) => ({ ...d, body: JSON.stringify({ ...(JSON.parse(d.body) as object), delivery_attempt: 1 }) }) },
    // Family 9: money states and idempotency, each caught through the public API alone (the staging profile).
    replay_without_header: { response: (res) => ({ ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k !== 'idempotent-replayed')) }) },
    concurrent_create_duplicated: {
      // A duplicate that arrives while its first request is in flight is run again under a fresh key.
      request: (req) => {
        const key = req.headers['x-idempotency-key'];
        if (!matches(req, 'POST', /^\/v1\/payments$/) || !key) return req;
        if (!inFlight.has(key)) {
          inFlight.add(key);
          return req;
        }
        return { ...req, headers: { ...req.headers, 'x-idempotency-key': crypto.randomUUID() } };
      },
    },
    partial_refund_reported_full: { response: editBody((req) => REFUND.test(req.path) && obj(json(req.body))?.amount !== undefined, (b) => (b.sub_status = 'REFUNDED')) },
    refund_total_rounded: { response: editBody((req) => REFUND.test(req.path), (b) => (obj(b.amount) as Record<string, number>).refunded = Math.round((obj(b.amount) as Record<string, number>).refunded ?? 0)) },
    capture_not_applied: {
      // The capture answers SUCCEEDED, but the payment read back afterwards is still only authorized.
      response: (res, req) => {
        const capturedId = /^\/v1\/payments\/([^/]+)\/transactions\/[^/]+\/capture$/.exec(req.path)?.[1];
        if (capturedId && res.status < 300) captured.add(capturedId);
        const readId = req.method === 'GET' ? /^\/v1\/payments\/([^/]+)$/.exec(req.path)?.[1] : undefined;
        const body = obj(res.body);
        return readId && captured.has(readId) && body ? { ...res, body: { ...body, sub_status: 'AUTHORIZED' } } : res;
      },
    },
    second_capture_accepted: { response: rewriteError((req, res) => /\/capture$/.test(req.path) && codeOf(res) === 'INVALID_STATE', { status: 200 }) },
    cancel_reported_as_refund: { response: editBody((req) => matches(req, 'POST', /\/cancel-or-refund$/), (b) => b.type === 'CANCEL' && (b.type = 'REFUND')) },
    declined_card_approved: {
      request: repairBody(
        (req) => matches(req, 'POST', /^\/v1\/payments$/),
        (b) => {
          const card = obj(obj(obj(obj(b)?.payment_method)?.detail)?.card);
          const data = obj(card?.card_data);
          if (data && data.number === '4000000000000002') data.number = PAN;
          return b;
        },
      ),
    },
    customer_read_stale: { response: editBody((req) => matches(req, 'GET', /^\/v1\/customers\/[^/]+$/), (b) => (b.first_name = `${String(b.first_name)}-stale`)) },
    payment_link_code_reused: { response: editBody((req) => matches(req, 'POST', /^\/v1\/payment-links$/), (b) => (b.code = 'link-code-0001')) },
    payment_forgets_session: { response: editBody((req) => matches(req, 'GET', /^\/v1\/payments\/[^/]+$/), (b) => (b.checkout = { ...obj(b.checkout), session: '00000000-0000-4000-8000-000000000000' })) },

    // Family 7: a slow route.
    slow_route: { request: async (req) => (matches(req, 'GET', /^\/v1\/customers\/[^/]+$/) ? new Promise((r) => setTimeout(() => r(req), 600)) : req) },
  } satisfies Record<string, Bend>;
  return faults;
}

export type Fault = keyof ReturnType<typeof faultsOf>;
export const FAULTS = Object.keys(faultsOf()) as Fault[];

const HOP_BY_HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/** A deliberately broken server: a proxy in front of a correct one that bends one rule. */
export function startFaultProxy(target: string, name: Fault) {
  return startBendingProxy(target, (self) => faultsOf(self)[name]);
}

/** A proxy in front of a correct server that bends what `bendOf` says (given the proxy's own address, once it listens). */
export async function startBendingProxy(target: string, bendOf: (self: () => string) => Bend) {
  let self = '';
  const fault: Bend = bendOf(() => self);
  const upstream: Upstream = async (req) => {
    const r = await fetch(`${target}${req.path}${req.query}`, { method: req.method, headers: req.headers, body: req.body });
    const text = await r.text();
    const headers: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      if (!HOP_BY_HOP.has(k)) headers[k] = v;
    });
    const parsed = json(text);
    return { status: r.status, headers, body: parsed === undefined ? text : parsed };
  };
  const server = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const proxied = async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      const [path, query] = (req.url ?? '/').split(/(?=\?)/);
      if (path === DELIVER_PATH && fault.delivery) {
        const to = new URLSearchParams(query ?? '').get('to') ?? '';
        const bent = fault.delivery({ headers, body: Buffer.concat(chunks).toString() });
        const answer = await fetch(to, { method: 'POST', headers: bent.headers, body: bent.body });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
        return;
      }
      let request: ProxyRequest = { method: req.method ?? 'GET', path: path ?? '/', query: query ?? '', headers, body: chunks.length ? Buffer.concat(chunks).toString() : undefined };
      request = fault.request ? await fault.request(request, upstream) : request;
      let answer = await upstream(request);
      answer = fault.response ? await fault.response(answer, request, upstream) : answer;
      res.writeHead(answer.status, answer.headers);
      res.end(typeof answer.body === 'string' ? answer.body : answer.body === undefined ? '' : JSON.stringify(answer.body));
    };
    req.on('end', () => {
      // A failure to reach the server behind is this proxy's answer, as a gateway's, never an unhandled rejection.
      proxied().catch((error: unknown) => answerBadGateway(res, `fault proxy: ${error instanceof Error ? error.message : String(error)}`));
    });
  });
  self = server.url;
  return { url: self, close: server.close };
}
