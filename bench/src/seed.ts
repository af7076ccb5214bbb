import { MemoryStore, type Sandbox } from '@switchyard/sandbox-server';
import { fixtures } from '@switchyard/contract/fixtures';
import { DEMO_ACCOUNT, post } from './demo-api.js';

/** What a template request stored, per kind: each record's id, unique key and JSON text. */
type Template = { kind: string; id: string; uniqueKey: string | null; json: string }[];

/** Marks every merchant-chosen key of a template (merchant_customer_id, idempotency key): each copy replaces it. */
const MARK = 'seedtemplate';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Every record the merchant holds, as stored. */
async function snapshot(sandbox: Sandbox, merchantId: string): Promise<Template> {
  const kinds = ['checkout_session', 'payment', 'idempotency', 'event', 'customer', 'payer_page', 'customer_session', 'payment_method'] as const;
  return sandbox.store.withTransaction(merchantId, async (tx) => {
    const out: Template = [];
    for (const kind of kinds) for (const e of await tx.listEntries<unknown>(kind, 1000)) out.push({ kind, id: e.id, uniqueKey: e.unique_key, json: JSON.stringify(e.data) });
    return out;
  });
}

/**
 * The same text as one flat string. A string joined from parts is kept by V8 as a tree of them
 * (a rope: an object per join), and the store keeps ids and unique keys as they are given; ids
 * the API makes are flat (a UUID), so a seeded copy's must be too, or every stored record would
 * leave objects on the heap that no real record leaves (about nine per payment and customer).
 */
const flat = (text: string) => Buffer.from(text).toString();

/**
 * Copies of `template` numbered `n`: every id the template made (a UUID that is not an account
 * of the merchant) and every merchant-chosen key gets a new value of its own, the same across
 * the copy's records, so a copy refers to itself as the template did.
 */
function copier(template: Template, fixed: Set<string>): (n: number) => Template {
  // Each text split once where a copy differs: the parts between, and which value goes in each gap.
  const split = (text: string) => {
    const parts: string[] = [];
    const gaps: ('id' | 'mark')[] = [];
    let at = 0;
    for (const m of text.matchAll(new RegExp(`${UUID.source}|${MARK}`, 'g'))) {
      const found = m[0];
      if (found !== MARK && fixed.has(found)) continue;
      parts.push(text.slice(at, found === MARK ? m.index : m.index + 24));
      gaps.push(found === MARK ? 'mark' : 'id');
      at = m.index + found.length;
    }
    parts.push(text.slice(at));
    return (suffix: string, mark: string) => parts.reduce((out, part, k) => out + part + (k < gaps.length ? (gaps[k] === 'id' ? suffix : mark) : ''), '');
  };
  const records = template.map((r) => ({ kind: r.kind, id: split(r.id), uniqueKey: r.uniqueKey === null ? null : split(r.uniqueKey), json: split(r.json) }));
  return (n) => {
    const suffix = n.toString(16).padStart(12, '0');
    const mark = `seed${n}`;
    return records.map((r) => ({ kind: r.kind, id: flat(r.id(suffix, mark)), uniqueKey: r.uniqueKey === null ? null : flat(r.uniqueKey(suffix, mark)), json: r.json(suffix, mark) }));
  };
}

/** Stores `count` copies of `template` through the store's own transactions, 500 copies a transaction. */
async function store(sandbox: Sandbox, merchantId: string, template: Template, fixed: Set<string>, count: number, first: number): Promise<void> {
  const BATCH = 500;
  const copy = copier(template, fixed);
  for (let start = 0; start < count; start += BATCH) {
    await sandbox.store.withTransaction(merchantId, async (tx) => {
      for (let n = start; n < Math.min(count, start + BATCH); n += 1) {
        for (const r of copy(first + n)) await tx.put(r.kind as never, r.id, JSON.parse(r.json), r.uniqueKey ?? undefined);
      }
    });
    // What the memory store does between requests (record-compactor.ts), here between batches, so
    // the heap holds the data as an idle sandbox would, not a million records still uncompressed.
    if (sandbox.store instanceof MemoryStore) sandbox.store.compactNow();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Fills the demo merchant of a running sandbox with `payments` payments (each with its checkout
 * session, idempotency record and events, as `POST /v1/payments` stores them) and `customers`
 * customers (with their event): one of each is made through the API, then copied through the
 * store's API with new ids, much faster than the API could make them. Returns nothing the
 * benchmarks read: they measure the sandbox as it then is.
 */
export async function seed(sandbox: Sandbox, url: string, merchantId: string, accountIds: string[], o: { payments: number; customers: number }): Promise<void> {
  const fixed = new Set([...accountIds, merchantId]);
  // The templates are made on a merchant of their own, so the copy reads nothing else.
  const keys = await post<{ id: string; public_api_key: string; private_secret_key: string; account_ids: string[] }>(url, '/sandbox/merchants', { name: 'seed template' });
  const auth = { 'public-api-key': keys.public_api_key, 'private-secret-key': keys.private_secret_key };
  const account = keys.account_ids[0] as string;
  const s = await post<{ checkout_session: string }>(url, '/v1/checkout/sessions', { ...fixtures.createCheckoutSession(), account_id: account }, auth);
  await post(url, '/v1/payments', { ...fixtures.createPayment(s.checkout_session), account_id: account }, { ...auth, 'x-idempotency-key': `${MARK}-key` });
  const paymentTemplate = await snapshot(sandbox, keys.id);
  await post(url, '/v1/customers', { ...fixtures.createCustomer(), merchant_customer_id: `${MARK}-customer` }, auth);
  const all = await snapshot(sandbox, keys.id);
  const customerTemplate = all.filter((r) => !paymentTemplate.some((p) => p.kind === r.kind && p.id === r.id));
  // Account ids of the template merchant become the demo merchant's.
  const onDemo = (t: Template) => t.map((r) => ({ ...r, json: r.json.replaceAll(account, accountIds[0] ?? DEMO_ACCOUNT) }));
  await store(sandbox, merchantId, onDemo(paymentTemplate), fixed, o.payments, 0);
  await store(sandbox, merchantId, onDemo(customerTemplate), fixed, o.customers, o.payments);
  await sandbox.store.resetMerchant(keys.id);
}
