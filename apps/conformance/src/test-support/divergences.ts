import { startBendingProxy, type ProxyResponse } from './fault-proxy.js';

type Answer = ProxyResponse;

/** A difference planted in front of a correct sandbox: the answers it bends, and where diff must report it. */
interface Plant {
  operation: string;
  kind: 'status' | 'error_code' | 'only_in_base' | 'only_in_compare' | 'type' | 'enum' | 'format';
  path: string;
  bend: (method: string, path: string, answer: Answer) => Answer | undefined;
}

const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
const edit = (answer: Answer, change: (body: Record<string, unknown>) => void): Answer => {
  const body = structuredClone(obj(answer.body) ?? {});
  change(body);
  return { ...answer, body };
};
const WEBHOOK = /^\/v1\/webhooks\/[^/]+$/;
const SUBSCRIPTION = /^\/v1\/subscriptions\/[^/]+$/;

/** One of each kind diff reports, each on one operation: diff must report each once, at its path, and nothing else. */
export const PLANTS: Plant[] = [
  { operation: 'createRecipient', kind: 'enum', path: 'national_entity', bend: (m, p, a) => (m === 'POST' && p === '/v1/recipients' && a.status === 201 ? edit(a, (b) => (b.national_entity = 'PERSON')) : undefined) },
  {
    operation: 'createRecipient',
    kind: 'error_code',
    path: '',
    bend: (m, p, a) => (m === 'POST' && p === '/v1/recipients' && obj(a.body)?.code === 'INVALID_REQUEST' ? edit(a, (b) => (b.code = 'INTERNAL_ERROR')) : undefined),
  },
  { operation: 'getWebhook', kind: 'only_in_compare', path: 'internal_region', bend: (m, p, a) => (m === 'GET' && WEBHOOK.test(p) && a.status === 200 ? edit(a, (b) => (b.internal_region = 'eu-1')) : undefined) },
  {
    operation: 'getWebhook',
    kind: 'format',
    path: 'updated_at',
    bend: (m, p, a) => (m === 'GET' && WEBHOOK.test(p) && a.status === 200 ? edit(a, (b) => (b.updated_at = String(b.updated_at).replace(/(\.\d+)?Z$/, '+00:00'))) : undefined),
  },
  { operation: 'getSubscription', kind: 'only_in_base', path: 'name', bend: (m, p, a) => (m === 'GET' && SUBSCRIPTION.test(p) && a.status === 200 ? edit(a, (b) => delete b.name) : undefined) },
  {
    operation: 'getSubscription',
    kind: 'type',
    path: 'amount.value',
    bend: (m, p, a) => (m === 'GET' && SUBSCRIPTION.test(p) && a.status === 200 ? edit(a, (b) => (b.amount = { ...obj(b.amount), value: String(obj(b.amount)?.value) })) : undefined),
  },
  {
    operation: 'PUT /v1/payment-links',
    kind: 'status',
    path: '',
    bend: (m, p, a) => (m === 'PUT' && p === '/v1/payment-links' && a.status === 405 ? { ...a, status: 404, body: { code: 'NOT_FOUND', messages: ['no route for PUT /v1/payment-links'] } } : undefined),
  },
];

/** A correct sandbox behind a proxy that applies every plant (each answer bent by every plant that takes it, in order). */
export function startDivergentProxy(target: string) {
  return startBendingProxy(target, () => ({ response: (res, req) => PLANTS.reduce<ProxyResponse>((a, plant) => plant.bend(req.method, req.path, a) ?? a, res) }));
}
