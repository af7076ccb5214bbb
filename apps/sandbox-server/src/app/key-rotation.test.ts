import { expect, it } from 'vitest';
import { clientsFor, newMerchant, raw, keysOf } from '../test-support/harness.js';
import { sandboxPerStore } from '../test-support/stores.js';

const INVALID_CREDENTIALS = { status: 401, body: { code: 'INVALID_CREDENTIALS', messages: ['invalid API credentials'] } };

// One process: the record it keeps (PostgreSQL) or reads (memory) is the one the rotation wrote,
// so the old key is refused by the very next request, also one that reaches no store (the journal).
sandboxPerStore('key-rotation.test.ts', 'rotating a secret key on one $name process', (sb) => {
  it('answers the new key once and keeps only its digest; the old key stops at once, the new one works, the data stays', async () => {
    const m = await newMerchant(sb.url);
    const old = clientsFor(sb.url, m);
    const customer = await old.customers.create({ body: { merchant_customer_id: 'before-rotation' } });
    if (customer.status !== 201) throw new Error(`customer: ${customer.status}`);

    const rotated = await old.sandbox.rotateSecretKey();
    if (rotated.status !== 200) throw new Error(`rotate: ${rotated.status}`);
    expect(rotated.body).toEqual({ ...m, private_secret_key: expect.stringMatching(/^sandbox_sk_[\w-]{32}$/) });
    expect(rotated.body.private_secret_key).not.toBe(m.private_secret_key);
    const stored = await sb.sandbox.store.getMerchant(m.id);
    expect(stored?.secret_key_digest).toBe(sb.sandbox.store.secretKeys.digest(rotated.body.private_secret_key));
    expect(JSON.stringify(stored)).not.toContain(rotated.body.private_secret_key);

    // The journal lives in the process: no store is asked, and the old key is refused all the same.
    expect(await raw(sb.url, '/sandbox/requests', { headers: keysOf(m) })).toMatchObject(INVALID_CREDENTIALS);
    expect(await old.customers.get({ params: { customer_id: customer.body.id } })).toMatchObject(INVALID_CREDENTIALS);
    expect(await old.customers.create({ body: { merchant_customer_id: 'old-key' } })).toMatchObject(INVALID_CREDENTIALS);
    expect(await old.sandbox.rotateSecretKey()).toMatchObject(INVALID_CREDENTIALS);

    const now = clientsFor(sb.url, rotated.body);
    expect(await now.customers.get({ params: { customer_id: customer.body.id } })).toMatchObject({ status: 200, body: { id: customer.body.id } });
    const journal = await now.sandbox.listRequests({ query: {} });
    expect(journal.status === 200 && journal.body.map((e) => e.operation_id)).toEqual(['createCustomer', 'getCustomer']);
    // The refused request with the old key created nothing.
    expect(await now.customers.create({ body: { merchant_customer_id: 'old-key' } })).toMatchObject({ status: 201 });
  });

  it('of two rotations at once with one key, one wins: its key works, the other is refused', async () => {
    const m = await newMerchant(sb.url);
    const old = clientsFor(sb.url, m);
    const results = await Promise.all([old.sandbox.rotateSecretKey(), old.sandbox.rotateSecretKey()]);
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(results.find((r) => r.status !== 200)).toMatchObject(INVALID_CREDENTIALS);
    const winner = won[0]?.body as typeof m;
    expect((await clientsFor(sb.url, winner).sandbox.getClock()).status).toBe(200);
    expect(sb.sandbox.store.secretKeys.matches((await sb.sandbox.store.getMerchant(m.id))?.secret_key_digest as string, winner.private_secret_key)).toBe(true);
  });
});
