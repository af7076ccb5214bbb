import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { clientsFor, newMerchant, startSandbox, type Clients, type RunningSandbox } from '../test-support/harness.js';

let sb: RunningSandbox;
let clients: Clients;
let accountId: string;
beforeAll(async () => {
  sb = await startSandbox();
  const merchant = await newMerchant(sb.url);
  clients = clientsFor(sb.url, merchant);
  accountId = merchant.account_ids[0] as string;
});
afterAll(() => sb.stop());

describe('customers (§4.11)', () => {
  it('creates a customer (201) and reads it back', async () => {
    const created = await clients.customers.create({ body: { ...fixtures.createCustomer(), merchant_customer_id: 'cust-a' } });
    expect(created.status).toBe(201);
    if (created.status !== 201) return;
    expect(created.body).toMatchObject({ merchant_customer_id: 'cust-a', first_name: 'Ada', country: 'AR' });
    const read = await clients.customers.get({ params: { customer_id: created.body.id } });
    expect(read).toMatchObject({ status: 200, body: created.body });
  });

  // docs/fidelity.md, "Absent values": §2.2 marks nothing nullable; upstream types strings and objects.
  it('answers "" for the strings not sent and leaves out the objects not sent, when created and when read', async () => {
    const created = await clients.customers.create({ body: { merchant_customer_id: 'cust-min', first_name: 'John', email: 'john@example.com' } });
    if (created.status !== 201) throw new Error('setup');
    const absent = { last_name: '', gender: '', date_of_birth: '', nationality: '', country: '', merchant_customer_created_at: '' };
    expect(created.body).toMatchObject({ first_name: 'John', email: 'john@example.com', ...absent });
    for (const key of ['document', 'phone', 'billing_address', 'shipping_address', 'metadata']) expect(created.body).not.toHaveProperty(key);
    expect(JSON.stringify(created.body)).not.toContain('null');
    expect((await clients.customers.get({ params: { customer_id: created.body.id } })).body).toEqual(created.body);
  });

  it('refuses a duplicate merchant_customer_id with 400 CUSTOMER_ID_DUPLICATED', async () => {
    await clients.customers.create({ body: { merchant_customer_id: 'cust-dup' } });
    const again = await clients.customers.create({ body: { merchant_customer_id: 'cust-dup' } });
    expect(again).toMatchObject({ status: 400, body: { code: 'CUSTOMER_ID_DUPLICATED' } });
  });

  it('creates exactly one of many concurrent duplicates', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => clients.customers.create({ body: { merchant_customer_id: 'cust-race' } })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(19);
  });

  it('answers an unknown customer with 400 CUSTOMER_NOT_FOUND', async () => {
    const res = await clients.customers.get({ params: { customer_id: '00000000-0000-4000-8000-000000000000' } });
    expect(res).toMatchObject({ status: 400, body: { code: 'CUSTOMER_NOT_FOUND' } });
  });

  it("treats another merchant's customer as not found", async () => {
    const created = await clients.customers.create({ body: { merchant_customer_id: 'cust-private' } });
    if (created.status !== 201) throw new Error('setup');
    const other = clientsFor(sb.url, await newMerchant(sb.url));
    expect(await other.customers.get({ params: { customer_id: created.body.id } })).toMatchObject({ status: 400, body: { code: 'CUSTOMER_NOT_FOUND' } });
  });
});

describe('customer sessions (supporting)', () => {
  // Upstream's answer carries `checkout_id`, the one sent or "the account's
  // default checkout" (Create Customer Session); `callback_url` not sent is "", a string as upstream types it.
  it('echoes the checkout it names, else the same default checkout as a checkout session of the account', async () => {
    const customer = await clients.customers.create({ body: { merchant_customer_id: 'cust-session-checkout' } });
    if (customer.status !== 201) throw new Error('setup');
    const checkoutId = '6822f80c-684e-41a3-8628-78963d3d60f7';
    const named = await clients.customers.createSession({ body: { account_id: accountId, country: 'AR', customer_id: customer.body.id, checkout_id: checkoutId } });
    expect(named).toMatchObject({ status: 201, body: { checkout_id: checkoutId, callback_url: '' } });
    const plain = await clients.customers.createSession({ body: { account_id: accountId, country: 'AR', customer_id: customer.body.id } });
    const checkout = await clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
    if (plain.status !== 201 || checkout.status !== 200) throw new Error('setup');
    expect(plain.body.checkout_id).toBe(checkout.body.checkout_id);
  });

  it('opens a session for an existing customer (201)', async () => {
    const customer = await clients.customers.create({ body: { merchant_customer_id: 'cust-session' } });
    if (customer.status !== 201) throw new Error('setup');
    const session = await clients.customers.createSession({ body: { account_id: accountId, country: 'AR', customer_id: customer.body.id } });
    expect(session.status).toBe(201);
    if (session.status !== 201) return;
    expect(session.body.customer_id).toBe(customer.body.id);
    expect(Date.parse(session.body.expires_at)).toBeGreaterThan(Date.parse(session.body.created_at));
  });

  it('refuses an unknown customer', async () => {
    const res = await clients.customers.createSession({ body: { account_id: accountId, country: 'AR', customer_id: '00000000-0000-4000-8000-000000000000' } });
    expect(res).toMatchObject({ status: 400, body: { code: 'CUSTOMER_NOT_FOUND' } });
  });
});
