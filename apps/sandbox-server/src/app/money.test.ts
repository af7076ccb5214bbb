import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_VALUE } from '@switchyard/contract';
import { fixtures } from '@switchyard/contract/fixtures';
import { idemKey, keysOf, pay, raw, sandboxWithMerchant } from '../test-support/harness.js';

/**
 * The cases measured before amounts had a maximum. Every one is refused with a
 * 400 naming the field now, or (at the maximum itself) adds up exactly. The bound is upstream's
 * range for an amount (Create Payment, cardholder_amount: "Range: 0.0001 – 9,999,999,999");
 * docs/sandbox.md, "Money".
 */
const w = sandboxWithMerchant();

const OVER_MAX = `body.amount.value: must be at most ${MAX_AMOUNT_VALUE}`;

/** POSTs JSON text as written, so numbers reach the sandbox exactly as a caller typed them. */
const post = (path: string, json: string) =>
  raw(w.sb.url, path, { method: 'POST', headers: { ...keysOf(w.merchant), 'content-type': 'application/json', 'x-idempotency-key': idemKey() }, body: json });

/** A create-payment body whose amount value is the JSON text `value`. */
async function paymentJson(value: string): Promise<string> {
  const session = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId } });
  if (session.status !== 200) throw new Error(`checkout session: ${JSON.stringify(session.body)}`);
  const body = { ...fixtures.createPayment(session.body.checkout_session, '4111111111111111'), account_id: w.accountId, amount: { currency: 'ARS', value: 0 } };
  return JSON.stringify(body).replace('"value":0', `"value":${value}`);
}

const eventCount = async (type: string) => {
  const res = await w.clients.sandbox.listEvents({ query: { type, limit: 1000 } });
  if (res.status !== 200) throw new Error('events');
  return res.body.length;
};

describe('amounts above the maximum are refused, never rounded or nulled', () => {
  it.each(['1000000000000', '1.7976931348623157e308', '9007199254740993', '9999999999.0001'])('a payment of %s: 400 naming amount.value', async (value) => {
    const before = await eventCount('payment.purchase');
    const res = await post('/v1/payments', await paymentJson(value));
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: expect.arrayContaining([OVER_MAX]) } });
    expect(await eventCount('payment.purchase')).toBe(before);
  });

  it('a checkout session of 1e12: 400 naming amount.value', async () => {
    const res = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId, amount: { currency: 'ARS', value: 1e12 } } });
    expect(res).toMatchObject({ status: 400, body: { messages: expect.arrayContaining([OVER_MAX]) } });
  });

  it.each(['1.7976931348623157e308', '9007199254740993'])('a transfer of %s: 400 naming amount.value, and no transfer made', async (value) => {
    const recipient = await w.clients.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: w.accountId } });
    if (recipient.status !== 201) throw new Error('recipient');
    const before = await eventCount('split_transfer.succeeded');
    const json = JSON.stringify({ ...fixtures.createTransfer(recipient.body.id), account_id: w.accountId, amount: { currency: 'BRL', value: 0 } }).replace('"value":0', `"value":${value}`);
    const res = await post('/v1/split-marketplace/transfers', json);
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: expect.arrayContaining([OVER_MAX]) } });
    expect(await eventCount('split_transfer.succeeded')).toBe(before);
  });
});

describe('at the maximum, money stays exact', () => {
  it('refund 0.0001, then "the rest": the history adds up to exactly what was captured', async () => {
    const p = await pay(w.clients, w.merchant, { value: MAX_AMOUNT_VALUE });
    expect(p.amount).toMatchObject({ value: MAX_AMOUNT_VALUE, captured: MAX_AMOUNT_VALUE });
    const charge = p.transactions?.id as string;
    const refund = (body: object) => w.clients.payments.refund({ params: { id: p.id, transaction_id: charge }, body: { ...fixtures.refund(), ...body }, headers: { 'x-idempotency-key': idemKey() } });
    expect(await refund({ amount: { currency: 'ARS', value: 0.0001 } })).toMatchObject({ status: 200, body: { sub_status: 'PARTIALLY_REFUNDED', transactions: { type: 'REFUND', amount: 0.0001 } } });
    expect(await refund({})).toMatchObject({ status: 200, body: { status: 'REFUNDED', amount: { refunded: MAX_AMOUNT_VALUE }, transactions: { type: 'REFUND', amount: 9_999_999_998.9999 } } });
    expect(await refund({ amount: { currency: 'ARS', value: 0.0001 } })).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });
    const read = await w.clients.payments.get({ params: { payment_id: p.id } });
    if (read.status !== 200) throw new Error('read');
    expect(read.body.amount).toMatchObject({ value: MAX_AMOUNT_VALUE, captured: MAX_AMOUNT_VALUE, refunded: MAX_AMOUNT_VALUE });
  });

  it('a transfer of the maximum comes back with its exact value, and reverses to exactly nothing', async () => {
    const recipient = await w.clients.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: w.accountId } });
    if (recipient.status !== 201) throw new Error('recipient');
    await w.clients.sandbox.fundRecipientBalance({ params: { recipient_id: recipient.body.id }, body: { amount: { currency: 'BRL', value: MAX_AMOUNT_VALUE } } });
    const key = () => ({ 'x-idempotency-key': idemKey() });
    const t = await w.clients.marketplace.createTransfer({ body: { ...fixtures.createTransfer(recipient.body.id), account_id: w.accountId, amount: { currency: 'BRL', value: MAX_AMOUNT_VALUE } }, headers: key() });
    expect(t).toMatchObject({ status: 201, body: { status: 'SUCCEEDED', amount: { value: MAX_AMOUNT_VALUE } } });
    if (t.status !== 201) throw new Error('transfer');
    const reverse = (amount?: number) =>
      w.clients.marketplace.reverseTransfer({ params: { transfer_id: t.body.id }, body: { ...fixtures.reverseTransfer(), account_id: w.accountId, ...(amount === undefined ? {} : { amount: { currency: 'BRL', value: amount } }) }, headers: key() });
    expect(await reverse(0.0001)).toMatchObject({ status: 200, body: { status: 'SUCCEEDED' } });
    expect(await reverse()).toMatchObject({ status: 200, body: { status: 'REVERSED', transactions: [{}, { amount: { value: 0.0001 } }, { amount: { value: 9_999_999_998.9999 } }] } });
  });
});
