import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'wrong_status' | 'missing_field' | 'wrong_enum' | 'over_refund' | 'ignore_auth' | 'ignore_idempotency';

interface Exchange {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/** How each fault bends a response (or a request) of a correct server. */
const BEND: Record<Fault, (e: Exchange) => Exchange> = {
  wrong_status: (e) => (e.method === 'POST' && e.path === '/v1/customers' && e.status === 201 ? { ...e, status: 200 } : e),
  missing_field: (e) => {
    if (e.method === 'GET' && e.path.startsWith('/v1/customers/') && e.status === 200) {
      const { created_at: _dropped, ...rest } = e.body as Record<string, unknown>;
      return { ...e, body: rest };
    }
    return e;
  },
  wrong_enum: (e) => (e.method === 'POST' && e.path === '/v1/recipients' && e.status === 201 ? { ...e, body: { ...(e.body as object), national_entity: 'PERSON' } } : e),
  over_refund: (e) => {
    const refused = (e.body as { code?: string } | null)?.code;
    return e.path.endsWith('/refund') && e.status === 400 && (refused === 'INVALID_AMOUNT' || refused === 'INVALID_STATE') ? { ...e, status: 200 } : e;
  },
  ignore_auth: (e) => e,
  ignore_idempotency: (e) => e,
};

const DEMO_KEYS = { 'public-api-key': 'sandbox_pk_demo_switchyard', 'private-secret-key': 'sandbox_sk_demo_switchyard' };

function requestHeaders(req: IncomingMessage, fault: Fault): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
  if (fault === 'ignore_auth' && (!headers['public-api-key'] || !headers['private-secret-key'] || headers['public-api-key'].includes('wrong'))) Object.assign(headers, DEMO_KEYS);
  if (fault === 'ignore_idempotency' && headers['x-idempotency-key']) headers['x-idempotency-key'] = crypto.randomUUID();
  return headers;
}

/** A deliberately broken server: a proxy in front of a correct one that bends one rule. */
export async function startFaultProxy(target: string, fault: Fault) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = chunks.length ? Buffer.concat(chunks).toString() : undefined;
      const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers: requestHeaders(req, fault), body });
      const text = await upstream.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      const bent = BEND[fault]({ method: req.method ?? 'GET', path: (req.url ?? '').split('?')[0] as string, status: upstream.status, body: parsed });
      res.writeHead(bent.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(typeof bent.body === 'string' ? bent.body : JSON.stringify(bent.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
