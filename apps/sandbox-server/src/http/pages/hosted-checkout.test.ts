import { describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import type { PaymentLinkState } from '../../domain/payment-links.js';
import { createLogger } from '../../logger.js';
import { MemoryStore } from '../../store/memory.js';
import { APPROVE, CALLBACK, CHALLENGE, card, checkoutPages, post } from '../../test-support/checkout-pages.js';
import { clientsFor, idemKey, newMerchant, sandboxWithMerchant, startSandbox } from '../../test-support/harness.js';

/**
 * The hosted checkout over real HTTP: pages, form posts with their redirects, and
 * every error as a readable page. The browser suite (tests/e2e) drives the same pages in Chromium.
 * The attacks on them (framing, callbacks, attempts and challenges crossing checkouts) run on both
 * stores in hosted-page-attacks.test.ts.
 */

const w = sandboxWithMerchant();
const { link, page, attemptOf, payCard, paymentOf, location, storedLink } = checkoutPages(w);

describe('a payment link page', () => {
  it.concurrent('shows the description, amount and methods, with a label for every input', async () => {
    const l = await link({ payment_method_types: ['CARD', 'PIX'], country: 'BR', amount: { currency: 'BRL', value: 12.5 } });
    const res = await page(l.checkout_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('Link for order 0002');
    expect(html).toContain('BRL\u00a012.50');
    expect(html).toContain('CARD, PIX');
    expect(html).toContain('name="viewport"');
    const ids = [...html.matchAll(/<input id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['card_number', 'holder_name', 'expiry', 'security_code']);
    for (const id of ids) expect(html).toContain(`<label for="${id}">`);
  });

  it.concurrent('pays with the approve card and sends the buyer to callback_url with the payment identifiers', async () => {
    const l = await link();
    const res = await payCard(l.checkout_url, APPROVE);
    expect(res.status).toBe(303);
    const back = location(res);
    expect(`${back.origin}${back.pathname}`).toBe('https://shop.example/return');
    expect(back.searchParams.get('from')).toBe('checkout');
    expect(back.searchParams.get('status')).toBe('SUCCEEDED');
    expect(back.searchParams.get('merchant_order_id')).toBe('order-0002');
    expect(back.searchParams.get('payment_link_code')).toBe(l.code);
    const payment = await paymentOf(back.searchParams.get('payment_id') ?? '');
    expect(payment).toMatchObject({ status: 'SUCCEEDED', sub_status: 'APPROVED', payment_link_id: l.id, payment_link_code: l.code, workflow: 'REDIRECT', callback_url: CALLBACK });
    expect(payment.payment_method.payment_method_detail?.card?.card_data?.lfd).toBe('1111');
  });

  it.concurrent('pays once for a form sent twice, in turn or at the same time', async () => {
    const l = await link();
    const fields = card(APPROVE, await attemptOf(l.checkout_url));
    const first = await post(l.checkout_url, fields);
    const again = await post(l.checkout_url, fields);
    expect(location(again).toString()).toBe(location(first).toString());
    const both = card(APPROVE, await attemptOf(l.checkout_url));
    const answers = await Promise.all([post(l.checkout_url, both), post(l.checkout_url, both)]);
    // A duplicate still being paid waits on its attempt page, which then sends it where the first went.
    const ends = await Promise.all(answers.map(async (res) => (location(res).pathname.includes('/attempts/') ? location(await page(location(res).toString())) : location(res))));
    expect(ends[0]?.searchParams.get('payment_id')).toBeTruthy();
    expect(ends[1]?.searchParams.get('payment_id')).toBe(ends[0]?.searchParams.get('payment_id'));
    expect(ends[0]?.searchParams.get('payment_id')).not.toBe(location(first).searchParams.get('payment_id'));
  });

  it.concurrent('shows a decline with its code, and lets the buyer try another card', async () => {
    const l = await link({ one_time_use: true });
    const res = await payCard(l.checkout_url, '4507990000000010');
    expect(res.status).toBe(303);
    const result = await page(location(res).toString());
    const html = await result.text();
    expect(html).toContain('Payment declined');
    expect(html).toContain('INSUFFICIENT_FUNDS');
    expect(html).toContain('data-retry');
    const id = /data-payment-id>([^<]+)</.exec(html)?.[1] ?? '';
    expect((await paymentOf(id)).status).toBe('DECLINED');
    // A declined card does not use a one-time link up, and both payments count.
    expect((await payCard(l.checkout_url, APPROVE)).status).toBe(303);
    expect((await w.sb.sandbox.store.locate<PaymentLinkState>('payment_link', l.code))?.data).toMatchObject({ payments_number: 2, status: 'USED' });
  });

  it.concurrent('takes a 3-D Secure challenge card through the challenge page', async () => {
    const l = await link();
    const res = await payCard(l.checkout_url, '4916994064252017');
    const challenge = location(res);
    // Under the form's attempt, which only this buyer knows.
    expect(challenge.pathname).toMatch(/\/attempts\/[^/]+\/challenge$/);
    expect((await page(challenge.toString())).status).toBe(200);
    const wrong = await post(challenge.toString(), { otp: '9999' });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('not the one your bank sent');
    const passed = await post(challenge.toString(), { otp: '1234' });
    expect(location(passed).searchParams.get('status')).toBe('SUCCEEDED');
    const payment = await paymentOf(location(passed).searchParams.get('payment_id') ?? '');
    expect(payment).toMatchObject({ status: 'SUCCEEDED', sub_status: 'APPROVED' });
    expect(payment.payment_method.payment_method_detail?.card?.card_data?.three_d_secure).toMatchObject({ pares_status: 'Y', electronic_commerce_indicator: '05' });
    // Answered, the challenge page sends the buyer on instead of asking again.
    expect((await page(challenge.toString())).status).toBe(303);
  });

  it.concurrent('declines the payment when the challenge fails', async () => {
    const l = await link();
    const challenge = location(await payCard(l.checkout_url, '4916994064252017'));
    const failed = await post(challenge.toString(), { otp: '1111' });
    const html = await (await page(location(failed).toString())).text();
    expect(html).toContain('Payment declined');
    expect(html).toContain('3-D Secure');
  });

  it.concurrent('authorizes only for capture false, and vaults on success when the link asks', async () => {
    const l = await link({ capture: false, vault_on_success: true });
    const back = location(await payCard(l.checkout_url, APPROVE));
    expect(back.searchParams.get('status')).toBe('PENDING');
    const payment = await paymentOf(back.searchParams.get('payment_id') ?? '');
    expect(payment).toMatchObject({ status: 'PENDING', sub_status: 'AUTHORIZED', payment_method: { vault_on_success: true } });
  });

  it.concurrent('sends the buyer of another method to its payer page, which links back to the link\'s callback_url', async () => {
    // A URL's scheme is case-insensitive: the payer page follows the same callback as the checkout.
    const l = await link({ payment_method_types: ['PIX'], country: 'BR', amount: { currency: 'BRL', value: 20 }, callback_url: 'HTTPS://shop.example/return' });
    const html = await (await page(l.checkout_url)).text();
    expect(html).not.toContain('card_number');
    const res = await post(l.checkout_url, { attempt: await attemptOf(l.checkout_url, 'PIX'), method: 'PIX' });
    expect(location(res).pathname).toMatch(/^\/pay\//);
    expect(await (await page(location(res).toString())).text()).toContain('<a data-callback href="https://shop.example/return">');
  });

  // A link answers "" for a merchant_order_id or description not sent (Create Payment Link
  // types both strings); a payment needs both (§4.3), so the link's code stands in. Links stored
  // before held null for them, and are paid alike.
  it.concurrent('pays a link made without merchant_order_id or description with its code standing in, as one stored with null for them', async () => {
    const l = await link({ merchant_order_id: undefined, description: undefined });
    expect(l).toMatchObject({ merchant_order_id: '', description: '' });
    const expectCodeStandsIn = async () => {
      const back = location(await payCard(l.checkout_url, APPROVE));
      expect(back.searchParams.get('merchant_order_id')).toBe(l.code);
      expect(await paymentOf(back.searchParams.get('payment_id') ?? '')).toMatchObject({ merchant_order_id: l.code, description: `Payment link ${l.code}` });
    };
    await expectCodeStandsIn();
    const found = await w.sb.sandbox.store.locate<PaymentLinkState>('payment_link', l.code);
    if (!found) throw new Error('setup');
    const before = { ...found.data, merchant_order_id: null, description: null };
    await w.sb.sandbox.store.withTransaction(found.merchantId, (tx) => tx.put('payment_link', l.id, before, l.code));
    await expectCodeStandsIn();
  });

  it.concurrent('refuses a one-time link on its second use, and counts every payment of a link', async () => {
    const l = await link({ one_time_use: true });
    expect((await payCard(l.checkout_url, APPROVE)).status).toBe(303);
    const again = await page(l.checkout_url);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('already been paid');
    const res = await post(l.checkout_url, card(APPROVE, crypto.randomUUID()));
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain('already been paid');
    expect(html).not.toContain(APPROVE);
    // No API route reads a link back (the spec has only create): the stored link shows the count.
    const stored = await w.sb.sandbox.store.locate<PaymentLinkState>('payment_link', l.code);
    expect(stored?.data).toMatchObject({ payments_number: 1, status: 'USED' });
  });
});

/**
 * A one-time link's status. Upstream's link statuses are "CREATED, USED, CANCELED, EXPIRED, ERROR"
 * (upstream's notes, "Statuses"; the spec shows CREATED, §2.9 and §3) and §4.12's one_time_use "true allows
 * one use only": a payment still pending, which may end unpaid, has not used the link yet.
 */
describe('a one-time link', () => {
  it.concurrent('stays CREATED while its payment waits for a 3-D Secure challenge, taking no other payment, and opens again when the challenge fails', async () => {
    const l = await link({ one_time_use: true });
    const challenge = location(await payCard(l.checkout_url, CHALLENGE));
    expect(challenge.pathname).toMatch(/\/challenge$/);
    expect(await storedLink(l.code)).toMatchObject({ status: 'CREATED', payments_number: 1 });
    const busy = await page(l.checkout_url);
    expect(busy.status).toBe(409);
    expect(await busy.text()).toContain('a payment with it is in progress');
    expect((await post(l.checkout_url, card(APPROVE, crypto.randomUUID()))).status).toBe(409);

    const failed = await post(challenge.toString(), { otp: '1111' });
    expect(await (await page(location(failed).toString())).text()).toContain('data-retry');
    expect(await storedLink(l.code)).toMatchObject({ status: 'CREATED', payments_number: 1 });
    expect((await page(l.checkout_url)).status).toBe(200);
    expect(location(await payCard(l.checkout_url, APPROVE)).searchParams.get('status')).toBe('SUCCEEDED');
    expect(await storedLink(l.code)).toMatchObject({ status: 'USED', payments_number: 2 });
  });

  it.concurrent('becomes USED when its pending payment goes through: a challenge passed, a payer who pays', async () => {
    const l = await link({ one_time_use: true });
    const challenge = location(await payCard(l.checkout_url, CHALLENGE));
    expect((await storedLink(l.code))?.status).toBe('CREATED');
    await post(challenge.toString(), { otp: '1234' });
    expect(await storedLink(l.code)).toMatchObject({ status: 'USED', payments_number: 1 });

    const pix = await link({ one_time_use: true, payment_method_types: ['PIX'], country: 'BR', amount: { currency: 'BRL', value: 20 } });
    const payer = location(await post(pix.checkout_url, { attempt: await attemptOf(pix.checkout_url, 'PIX'), method: 'PIX' }));
    expect((await storedLink(pix.code))?.status).toBe('CREATED');
    await post(payer.toString(), { outcome: 'SUCCEEDED' });
    expect((await storedLink(pix.code))?.status).toBe('USED');
  });

  it.concurrent('opens again when the merchant cancels the payment of an abandoned challenge', async () => {
    const l = await link({ one_time_use: true });
    expect(location(await payCard(l.checkout_url, CHALLENGE)).pathname).toMatch(/\/challenge$/);
    const id = (await storedLink(l.code))?.last_payment_id ?? '';
    const cancelled = await w.clients.payments.cancelOrRefund({ params: { payment_id: id }, body: fixtures.cancelOrRefund(), headers: { 'x-idempotency-key': idemKey() } });
    expect(cancelled.status).toBe(201);
    expect(await storedLink(l.code)).toMatchObject({ status: 'CREATED', payments_number: 1 });
    expect((await page(l.checkout_url)).status).toBe(200);
  });

  // USED is final (upstream's link statuses; docs/checkout.md: authorized "for a later capture ...
  // uses the link up"): cancelling the authorization afterwards does not make the link payable again.
  it.concurrent('stays USED when the authorization that used it is cancelled', async () => {
    const l = await link({ one_time_use: true, capture: false });
    const id = location(await payCard(l.checkout_url, APPROVE)).searchParams.get('payment_id') ?? '';
    expect(await paymentOf(id)).toMatchObject({ status: 'PENDING', sub_status: 'AUTHORIZED' });
    expect((await storedLink(l.code))?.status).toBe('USED');
    const cancelled = await w.clients.payments.cancelOrRefund({ params: { payment_id: id }, body: fixtures.cancelOrRefund(), headers: { 'x-idempotency-key': idemKey() } });
    expect(cancelled).toMatchObject({ status: 201, body: { payment: { status: 'CANCELED' } } });
    expect(await storedLink(l.code)).toMatchObject({ status: 'USED', payments_number: 1 });
    const used = await page(l.checkout_url);
    expect(used.status).toBe(409);
    expect(await used.text()).toContain('already been paid');
  });

  // A link stored before links kept their last payment's status has `last_payment_id` alone: its
  // page reads that payment once (payment, then link: the order of a change to the payment).
  it.concurrent("learns the status of its last payment when stored before it kept it", async () => {
    const l = await link({ one_time_use: true });
    const challenge = location(await payCard(l.checkout_url, CHALLENGE));
    const found = await w.sb.sandbox.store.locate<PaymentLinkState>('payment_link', l.code);
    if (!found) throw new Error('setup');
    const { last_payment_status: kept, ...before } = found.data;
    expect(kept).toEqual({ status: 'PENDING', sub_status: 'WAITING_ADDITIONAL_STEP' });
    await w.sb.sandbox.store.withTransaction(found.merchantId, (tx) => tx.put('payment_link', before.id, before, l.code));

    const busy = await page(l.checkout_url);
    expect(busy.status).toBe(409);
    expect(await busy.text()).toContain('a payment with it is in progress');
    expect((await storedLink(l.code))?.last_payment_status).toEqual(kept);
    await post(challenge.toString(), { otp: '1111' });
    expect((await page(l.checkout_url)).status).toBe(200);
  });

  it.concurrent('opens again when the payer never pays and the payment expires', async () => {
    const m = await newMerchant(w.sb.url);
    const c = clientsFor(w.sb.url, m);
    const created = await c.checkout.createPaymentLink({
      body: { ...fixtures.createPaymentLink(), account_id: m.account_ids[0] as string, availability: undefined, one_time_use: true, payment_method_types: ['PIX'], country: 'BR', amount: { currency: 'BRL', value: 20 } },
    });
    if (created.status !== 200) throw new Error('setup');
    const l = created.body;
    await post(l.checkout_url, { attempt: await attemptOf(l.checkout_url, 'PIX'), method: 'PIX' });
    expect((await page(l.checkout_url)).status).toBe(409);
    await c.sandbox.advanceClock({ body: { seconds: 24 * 3600 } });
    expect((await page(l.checkout_url)).status).toBe(200);
    const stored = await w.sb.sandbox.store.locate<PaymentLinkState>('payment_link', l.code);
    expect(stored?.data).toMatchObject({ status: 'CREATED', payments_number: 1 });
  });
});

describe('a checkout session page', () => {
  it.concurrent('pays the session once and returns to its callback_url', async () => {
    const s = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId, callback_url: CALLBACK } });
    if (s.status !== 200) throw new Error('session');
    const url = `${w.sb.url}/checkout/sessions/${s.body.checkout_session}`;
    const html = await (await page(url)).text();
    expect(html).toContain('Order 0001');
    expect(html).toContain('ARS\u00a099.99');
    const back = location(await payCard(url, APPROVE));
    expect(back.searchParams.get('checkout_session')).toBe(s.body.checkout_session);
    expect(await paymentOf(back.searchParams.get('payment_id') ?? '')).toMatchObject({ status: 'SUCCEEDED', checkout: { session: s.body.checkout_session } });
    const used = await page(url);
    expect(used.status).toBe(409);
    expect(await used.text()).toContain('already has its payment');
  });

  it.concurrent('says why a session without an amount cannot be paid', async () => {
    const s = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId, amount: undefined } });
    if (s.status !== 200) throw new Error('session');
    const res = await page(`/checkout/sessions/${s.body.checkout_session}`);
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('without an amount');
  });
});

describe('checkout errors are pages', () => {
  const isPage = async (res: Response, status: number, text: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain(text);
    expect(html).not.toMatch(/"code":|at .*\.ts:\d+/);
    return html;
  };

  it.concurrent('404s an unknown link, session, payment or attempt', async () => {
    await isPage(await page('/checkout/links/nope'), 404, 'Payment link not found');
    await isPage(await page(`/checkout/sessions/${crypto.randomUUID()}`), 404, 'Checkout session not found');
    const l = await link();
    await isPage(await page(`/checkout/links/${l.code}/payments/${crypto.randomUUID()}`), 404, 'Payment not found');
    await isPage(await page(`/checkout/links/${l.code}/attempts/${crypto.randomUUID()}`), 404, 'Payment attempt not found');
  });

  it.concurrent('answers a form with mistakes 400, naming them and never echoing the card number or code', async () => {
    const l = await link();
    const html = await isPage(await post(l.checkout_url, { ...card(APPROVE, await attemptOf(l.checkout_url)), expiry: '13/30', security_code: '98' }), 400, 'Expiry date');
    expect(html).toContain('Security code: enter');
    expect(html).not.toContain(APPROVE);
    expect(html).not.toContain('"98"');
    await isPage(await post(l.checkout_url, { ...card('4111111111111112', await attemptOf(l.checkout_url)) }), 400, 'Luhn');
    await isPage(await post(l.checkout_url, { attempt: await attemptOf(l.checkout_url), method: 'PIX' }), 400, 'takes CARD, not PIX');
  });

  it.concurrent('answers an oversized form 413 with a page', async () => {
    const l = await link();
    await isPage(await post(l.checkout_url, { ...card(APPROVE, crypto.randomUUID()), holder_name: 'x'.repeat(4000) }), 413, 'Form too large');
  });

  it.concurrent('409s a link that has expired or is not yet available, saying why', async () => {
    const m = await newMerchant(w.sb.url);
    const c = clientsFor(w.sb.url, m);
    const clock = await c.sandbox.getClock();
    if (clock.status !== 200) throw new Error('setup');
    const now = Date.parse(clock.body.now);
    const body = { ...fixtures.createPaymentLink(), account_id: m.account_ids[0] as string };
    const later = await c.checkout.createPaymentLink({ body: { ...body, availability: { start_at: new Date(now + 7200_000).toISOString(), finish_at: new Date(now + 9000_000).toISOString() } } });
    const soon = await c.checkout.createPaymentLink({ body: { ...body, availability: { finish_at: new Date(now + 3600_000).toISOString() } } });
    if (later.status !== 200 || soon.status !== 200) throw new Error('setup');
    await isPage(await page(later.body.checkout_url), 409, 'can be paid from');
    await c.sandbox.advanceClock({ body: { seconds: 3600 } });
    await isPage(await page(soon.body.checkout_url), 409, 'expired at');
    await isPage(await post(soon.body.checkout_url, card(APPROVE, crypto.randomUUID())), 409, 'expired at');
  });
});

describe('an unexpected failure on a checkout page', () => {
  it('is a 500 page naming the request id, logged without the form that holds the card', async () => {
    const logs: string[] = [];
    const store = new MemoryStore({ secretKeyPepper: 'pepper' });
    store.locate = () => Promise.reject(new Error('the store is down'));
    const sb = await startSandbox({}, { store, logger: createLogger('error', { write: (line: string) => void logs.push(line) }) });
    try {
      const res = await post(`${sb.url}/checkout/links/abc`, card(APPROVE, crypto.randomUUID()));
      expect([res.status, res.headers.get('content-type')]).toEqual([500, 'text/html; charset=utf-8']);
      expect(await res.text()).toContain(`request id ${res.headers.get('x-request-id')}`);
      expect(logs.join('')).toContain('the store is down');
      expect(logs.join('')).not.toMatch(/4111111111111111|"123"/);
    } finally {
      await sb.stop();
    }
  });
});
