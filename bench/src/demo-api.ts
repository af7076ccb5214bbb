/** The seeded demo merchant every benchmark drives, and the small helpers that call it. */
import { fixtures } from '@switchyard/contract/fixtures';

export const DEMO_KEYS = { 'public-api-key': 'sandbox_pk_demo_switchyard', 'private-secret-key': 'sandbox_sk_demo_switchyard' };
export const DEMO_ACCOUNT = '4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31';

/** A POST as the demo merchant; throws on anything but 2xx, with the answer's body. */
export async function post<T>(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { ...DEMO_KEYS, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Runs `make` `count` times with `concurrency` in flight; results in call order. */
export async function pool<T>(count: number, concurrency: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next;
        next += 1;
        out[i] = await make(i);
      }
    }),
  );
  return out;
}

/** `n` checkout sessions of the demo merchant, made 16 at a time: each payment pays one of its own. */
export const sessions = (url: string, n: number) =>
  pool(n, 16, async () => (await post<{ checkout_session: string }>(url, '/v1/checkout/sessions', { ...fixtures.createCheckoutSession(), account_id: DEMO_ACCOUNT })).checkout_session);

/** The body of a payment of `session` by the demo merchant. */
export const paymentBody = (session: string) => ({ ...fixtures.createPayment(session), account_id: DEMO_ACCOUNT });
