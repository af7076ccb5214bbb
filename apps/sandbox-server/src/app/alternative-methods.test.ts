import { describe, expect, it } from 'vitest';
import type { CreatePaymentBody, Payment } from '@switchyard/contract';
import { clientsFor, idemKey, newMerchant, sandboxWithMerchant, type Clients } from '../test-support/harness.js';
import { eventually, startReceiver } from '../test-support/receiver.js';

/**
 * Alternative payment methods end to end, through the real client over HTTP.
 * Shapes from upstream's Create Payment (the type enum, the
 * "Alternative payment method" CASH example answering READY_TO_PAY with
 * `payment_method_detail.ticket`, the wallet and bank-transfer examples).
 */

const w = sandboxWithMerchant();

function body(accountId: string, type: NonNullable<CreatePaymentBody['payment_method']['type']>, currency: string, extra: Partial<CreatePaymentBody> = {}): CreatePaymentBody {
  return {
    account_id: accountId,
    merchant_order_id: `order-${type.toLowerCase()}`,
    description: `Pay with ${type}`,
    country: 'BR',
    amount: { currency, value: 120.5 },
    workflow: 'DIRECT',
    payment_method: { type },
    ...extra,
  };
}

async function create(clients: Clients, b: CreatePaymentBody): Promise<Payment> {
  const res = await clients.payments.create({ body: b, headers: { 'x-idempotency-key': idemKey() } });
  if (res.status !== 201) throw new Error(`payment: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function purchaseEvents(clients: Clients, paymentId: string): Promise<unknown[]> {
  const res = await clients.sandbox.listEvents({ query: { resource_id: paymentId, type: 'payment.purchase' } });
  if (res.status !== 200) throw new Error('events');
  return res.body.map((e) => e.data.status);
}

/** A fresh merchant: tests that move the clock must not move the shared one's. */
async function ownMerchant(): Promise<{ clients: Clients; accountId: string }> {
  const merchant = await newMerchant(w.sb.url);
  return { clients: clientsFor(w.sb.url, merchant), accountId: merchant.account_ids[0] as string };
}

describe('PIX', () => {
  it('is READY_TO_PAY with a QR payload and an expiry, and SUCCEEDED once the payer pays (control route)', async () => {
    const p = await create(w.clients, body(w.accountId, 'PIX', 'BRL'));
    expect(p).toMatchObject({ status: 'READY_TO_PAY', sub_status: 'CREATED', transactions: { type: 'PURCHASE', status: 'CREATED', category: 'BANK_TRANSFER' } });
    const bt = p.payment_method.payment_method_detail?.bank_transfer;
    expect(bt?.code).toMatch(/^000201.*br\.gov\.bcb\.pix.*5303986540[0-9]120\.50.*6304[0-9A-F]{4}$/);
    expect(Date.parse(bt?.expires_at ?? '') - Date.parse(p.created_at)).toBe(24 * 3600_000);
    expect(bt?.redirect_url).toMatch(new RegExp(`^${w.sb.url}/pay/`));

    const paid = await w.clients.sandbox.payerOutcome({ params: { payment_id: p.id }, body: { outcome: 'SUCCEEDED' } });
    expect(paid).toMatchObject({ status: 200, body: { status: 'SUCCEEDED', sub_status: 'APPROVED', amount: { captured: 120.5 }, transactions: { status: 'SUCCEEDED' } } });
    const got = await w.clients.payments.get({ params: { payment_id: p.id } });
    expect(got).toMatchObject({ status: 200, body: { status: 'SUCCEEDED' } });
    expect(await purchaseEvents(w.clients, p.id)).toEqual(['READY_TO_PAY', 'SUCCEEDED']);
  });

  // The expiry is checked to the second, on a sandbox of its own whose clock is frozen (a seed
  // freezes it): sandbox time moves only when the test advances it. On a clock that follows the
  // machine's, a slow machine spends that second between the payment and the advance, which then
  // expires it already.
  const frozen = sandboxWithMerchant({ seed: 'pix-expiry' });

  it('EXPIRES on the sandbox clock when nobody pays, and can no longer be paid', async () => {
    const { clients, accountId } = frozen;
    const p = await create(clients, body(accountId, 'PIX', 'BRL'));
    await clients.sandbox.advanceClock({ body: { seconds: 24 * 3600 - 1 } });
    expect((await clients.payments.get({ params: { payment_id: p.id } })).body).toMatchObject({ status: 'READY_TO_PAY' });
    await clients.sandbox.advanceClock({ body: { seconds: 1 } });
    const got = await clients.payments.get({ params: { payment_id: p.id } });
    expect(got.body).toMatchObject({ status: 'EXPIRED', sub_status: 'EXPIRED', transactions: [{ status: 'EXPIRED', updated_at: p.payment_method.payment_method_detail?.bank_transfer?.expires_at }] });
    expect(await purchaseEvents(clients, p.id)).toEqual(['READY_TO_PAY', 'EXPIRED']);
    const late = await clients.sandbox.payerOutcome({ params: { payment_id: p.id }, body: { outcome: 'SUCCEEDED' } });
    expect(late).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });
  });

  it('refuses a currency PIX does not settle in (400 INVALID_PARAMETERS)', async () => {
    const res = await w.clients.payments.create({ body: body(w.accountId, 'PIX', 'USD'), headers: { 'x-idempotency-key': idemKey() } });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: [expect.stringContaining('BRL')] } });
  });

  it('refunds a paid PIX, partially', async () => {
    const p = await create(w.clients, body(w.accountId, 'PIX', 'BRL'));
    await w.clients.sandbox.payerOutcome({ params: { payment_id: p.id }, body: { outcome: 'SUCCEEDED' } });
    const res = await w.clients.payments.refund({
      params: { id: p.id, transaction_id: p.transactions?.id as string },
      body: { merchant_reference: 'pix-refund', amount: { currency: 'BRL', value: 20.5 } },
      headers: { 'x-idempotency-key': idemKey() },
    });
    expect(res).toMatchObject({ status: 200, body: { status: 'SUCCEEDED', sub_status: 'PARTIALLY_REFUNDED', amount: { refunded: 20.5 } } });
  });
});

describe('CASH voucher', () => {
  it("answers upstream's ticket (provider number, barcode, expiry, redirect URL) and SUCCEEDS when paid", async () => {
    const p = await create(w.clients, body(w.accountId, 'CASH', 'USD', { workflow: 'REDIRECT', country: 'US' }));
    expect(p).toMatchObject({ status: 'READY_TO_PAY', sub_status: 'CREATED', transactions: { category: 'TICKET', status: 'CREATED' } });
    const ticket = p.payment_method.payment_method_detail?.ticket;
    expect(ticket?.provider_number).toMatch(/^SBX\d{21}$/);
    expect(ticket?.provider_barcode).toMatch(/^\d{44}$/);
    expect(Date.parse(ticket?.expires_at ?? '') - Date.parse(p.created_at)).toBe(72 * 3600_000);
    const paid = await w.clients.sandbox.payerOutcome({ params: { payment_id: p.id }, body: { outcome: 'SUCCEEDED' } });
    expect(paid).toMatchObject({ status: 200, body: { status: 'SUCCEEDED', payment_method: { payment_method_detail: { ticket: { provider_number: ticket?.provider_number } } } } });
    expect(await purchaseEvents(w.clients, p.id)).toEqual(['READY_TO_PAY', 'SUCCEEDED']);
  });

  it('is refunded only to a bank account (the payer paid cash)', async () => {
    const p = await create(w.clients, body(w.accountId, 'OXXO', 'MXN', { country: 'MX' }));
    await w.clients.sandbox.payerOutcome({ params: { payment_id: p.id }, body: { outcome: 'SUCCEEDED' } });
    const params = { id: p.id, transaction_id: p.transactions?.id as string };
    const bare = await w.clients.payments.refund({ params, body: { merchant_reference: 'oxxo-refund' }, headers: { 'x-idempotency-key': idemKey() } });
    expect(bare).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: [expect.stringContaining('bank_transfer')] } });
    const toBank = await w.clients.payments.refund({
      params,
      body: { merchant_reference: 'oxxo-refund', payment_method: { detail: { bank_transfer: { bank_account: '012180001234567897', beneficiary_name: 'Ana Payer' } } } },
      headers: { 'x-idempotency-key': idemKey() },
    });
    expect(toBank).toMatchObject({ status: 200, body: { status: 'REFUNDED' } });
  });

  it('can be cancelled while it waits: nothing was paid', async () => {
    const p = await create(w.clients, body(w.accountId, 'EFECTY', 'COP', { country: 'CO' }));
    const res = await w.clients.payments.cancelOrRefund({ params: { payment_id: p.id }, body: { reason: 'REQUESTED_BY_CUSTOMER' }, headers: { 'x-idempotency-key': idemKey() } });
    expect(res).toMatchObject({ status: 201, body: { type: 'CANCEL', payment: { status: 'CANCELED' } } });
  });
});

describe('redirect methods, completed on the sandbox page', () => {
  it('serves a real page at redirect_url whose form pays the payment', async () => {
    const p = await create(w.clients, body(w.accountId, 'PSE', 'COP', { country: 'CO', callback_url: 'https://merchant.example/return' }));
    const url = p.payment_method.payment_method_detail?.bank_transfer?.redirect_url as string;
    expect(url.startsWith(`${w.sb.url}/pay/`)).toBe(true);
    const pageRes = await fetch(url);
    expect(pageRes.status).toBe(200);
    const html = await pageRes.text();
    expect(html).toContain('<span data-status>READY_TO_PAY</span>');
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] as string;
    expect(html).toContain('name="outcome" value="SUCCEEDED"');

    const submitted = await fetch(`${w.sb.url}${action}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=SUCCEEDED' });
    expect(submitted.status).toBe(200); // followed the 303 back to the page
    const after = await submitted.text();
    expect(after).toContain('<span data-status>SUCCEEDED</span>');
    expect(after).not.toContain('<form');
    expect(after).toContain('href="https://merchant.example/return"');

    const got = await w.clients.payments.get({ params: { payment_id: p.id } });
    expect(got.body).toMatchObject({ status: 'SUCCEEDED', transactions: [{ category: 'BANK_TRANSFER', status: 'SUCCEEDED' }] });
    expect(await purchaseEvents(w.clients, p.id)).toEqual(['READY_TO_PAY', 'SUCCEEDED']);

    const again = await fetch(`${w.sb.url}${action}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=DECLINED' });
    expect(again.status).toBe(409);
  });

  it.each([
    ['PIX', 'BRL', 'BR', 'BRL\u00a0120.50'],
    ['CODI', 'MXN', 'MX', 'MXN\u00a0120.50'],
  ] as const)('shows the QR code of a %s payment as an image of its copy-and-paste code, and its amount formatted', async (type, currency, country, amount) => {
    const p = await create(w.clients, body(w.accountId, type, currency, { country }));
    const url = p.payment_method.payment_method_detail?.bank_transfer?.redirect_url as string;
    const html = await (await fetch(url)).text();
    const qrCode = /<dd data-qr-code>([^<]+)<\/dd>/.exec(html)?.[1];
    expect(qrCode).toBe(p.payment_method.payment_method_detail?.bank_transfer?.code);
    // The image itself is decoded back to the code by the browser suite (tests/e2e, checkout.browser.test.ts).
    expect(html).toMatch(/<div class="qr" role="img" aria-label="QR code of the payment" data-qr-image><svg [^>]*viewBox="0 0 \d+ \d+"[^>]*>.*<\/svg>\s*<\/div>/s);
    expect(html).toContain(`<p class="amount" data-amount>${amount}</p>`);
  });

  it('lets the payer decline on the page', async () => {
    const p = await create(w.clients, body(w.accountId, 'PAYPAL', 'USD', { country: 'US' }));
    const url = p.payment_method.payment_method_detail?.wallet?.redirect_url as string;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=DECLINED' });
    expect(await res.text()).toContain('<span data-status>DECLINED</span>');
    expect((await w.clients.payments.get({ params: { payment_id: p.id } })).body).toMatchObject({ status: 'DECLINED', transactions: [{ status: 'DECLINED' }] });
  });

  it('refuses an outcome the payer cannot choose, and answers 404 for an unknown page', async () => {
    const p = await create(w.clients, body(w.accountId, 'ADDI', 'COP', { country: 'CO' }));
    expect(p.payment_method.payment_method_detail?.bnpl?.redirect_url).toBeTruthy();
    const url = p.payment_method.payment_method_detail?.bnpl?.redirect_url as string;
    const bad = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=EXPIRED' });
    expect(bad.status).toBe(400);
    expect((await fetch(`${w.sb.url}/pay/nope`)).status).toBe(404);
  });
});

describe('wallets', () => {
  const wallet = (type: 'APPLE_PAY' | 'GOOGLE_PAY', extra: Partial<CreatePaymentBody> = {}) =>
    body(w.accountId, type, 'USD', { country: 'US', payment_method: { type, detail: { wallet: { payment_token: '{"signedMessage":"..."}', card_data: { lfd: '1515' } } } }, ...extra });

  it('approves a wallet token at once, like a card', async () => {
    const p = await create(w.clients, wallet('GOOGLE_PAY'));
    expect(p).toMatchObject({
      status: 'SUCCEEDED',
      sub_status: 'APPROVED',
      transactions: { type: 'PURCHASE', status: 'SUCCEEDED', category: 'WALLET' },
      payment_method: { type: 'GOOGLE_PAY', payment_method_detail: { wallet: { card_data: { lfd: '1515' }, capture: true } } },
    });
  });

  it('declines by the description test code, like a card', async () => {
    const p = await create(w.clients, wallet('APPLE_PAY', { description: 'INSUFFICIENT_FUNDS' }));
    expect(p).toMatchObject({ status: 'DECLINED', transactions: { status: 'DECLINED', response_code: 'INSUFFICIENT_FUNDS' } });
  });

  it("answers ERROR without a token, as upstream's wallet example", async () => {
    const p = await create(w.clients, body(w.accountId, 'APPLE_PAY', 'USD', { country: 'US', payment_method: { type: 'APPLE_PAY', detail: { card: { verify: false } } } }));
    expect(p).toMatchObject({ status: 'ERROR', transactions: { status: 'ERROR' } });
  });

  it('refuses a card number or an enrolled card for a non-card type (400 INVALID_REQUEST)', async () => {
    const b = body(w.accountId, 'APPLE_PAY', 'USD', { payment_method: { type: 'APPLE_PAY', vaulted_token: 'tok-123', detail: { ticket: {} } } });
    const res = await w.clients.payments.create({ body: b, headers: { 'x-idempotency-key': idemKey() } });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
    expect(JSON.stringify(res.body)).toContain('detail.ticket');
  });
});

describe('webhooks', () => {
  it('sends payment.purchase when the payment waits for the payer and when the payer pays', async () => {
    const receiver = await startReceiver();
    try {
      const { clients, accountId } = await ownMerchant();
      const hook = await clients.webhooks.create({ body: { account_id: accountId, name: 'apm', url: receiver.url, hmac_client_secret: 'whsec-apm', payment_triggers: ['PURCHASE'] } });
      expect(hook.status).toBe(201);
      const p = await create(clients, body(accountId, 'PIX', 'BRL'));
      await clients.sandbox.payerOutcome({ params: { payment_id: p.id }, body: { outcome: 'SUCCEEDED' } });
      const statuses = await eventually(async () => {
        const sent = receiver.received.map((r) => JSON.parse(r.body) as { type_event: string; data: { payment: { id: string; status: string } } });
        const mine = sent.filter((e) => e.type_event === 'payment.purchase' && e.data.payment.id === p.id).map((e) => e.data.payment.status);
        return mine.length === 2 ? mine.sort() : undefined;
      });
      expect(statuses).toEqual(['READY_TO_PAY', 'SUCCEEDED']);
    } finally {
      await receiver.close();
    }
  });
});

describe('every type of the Create Payment enum', () => {
  it('is accepted with the detail it needs', async () => {
    const { PAYMENT_METHOD_TYPES, PAYMENT_METHODS } = await import('@switchyard/contract');
    for (const type of PAYMENT_METHOD_TYPES.filter((t) => t !== 'CARD')) {
      const currency = PAYMENT_METHODS[type].currencies?.[0] ?? 'USD';
      const extra: Partial<CreatePaymentBody> = PAYMENT_METHODS[type].flow === 'wallet' ? { payment_method: { type, detail: { wallet: { payment_token: 'device-token' } } } } : {};
      const p = await create(w.clients, body(w.accountId, type, currency, extra));
      expect([type, p.status]).toEqual([type, PAYMENT_METHODS[type].flow === 'wallet' ? 'SUCCEEDED' : 'READY_TO_PAY']);
      expect(p.transactions?.category).toBe(PAYMENT_METHODS[type].category);
    }
  });
});
