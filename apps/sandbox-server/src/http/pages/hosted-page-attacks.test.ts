import { describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { APPROVE, CALLBACK, CHALLENGE, card, checkoutPages, merchantOn, post } from '../../test-support/checkout-pages.js';
import { clientsFor, idemKey, newMerchant } from '../../test-support/harness.js';
import { sandboxPerStore } from '../../test-support/stores.js';

/**
 * The attacks on the hosted pages, each a regression test on both stores (the pages find their
 * checkout across merchants through the store): framing a page, a callback as an open redirect,
 * a GET that repeats what a POST did, and a payment attempt or a 3-D Secure challenge reached
 * from another checkout than the one that started it.
 */
sandboxPerStore('hosted-page-attacks.test.ts', 'hosted page attacks on the $name store', (sb) => {
  const w = merchantOn(sb);
  const { link, page, attemptOf, payCard, paymentOf, location, storedLink } = checkoutPages(w);
  const key = () => ({ 'x-idempotency-key': idemKey() });

  /** A PIX payment waiting for its payer, with `callbackUrl`: its payer page is `redirect_url`. */
  async function pix(callbackUrl = CALLBACK) {
    const body = { account_id: w.accountId, merchant_order_id: 'order-pix', description: 'Pay with PIX', country: 'BR', amount: { currency: 'BRL', value: 10 }, workflow: 'DIRECT', callback_url: callbackUrl, payment_method: { type: 'PIX' } } as const;
    const res = await w.clients.payments.create({ body, headers: key() });
    if (res.status !== 201) throw new Error(`pix: ${JSON.stringify(res.body)}`);
    return res.body.payment_method.payment_method_detail?.bank_transfer?.redirect_url as string;
  }

  /** A direct bank-account enrollment waiting for its payer, with `callbackUrl`: its page is `redirect_url`. */
  async function enrollment(callbackUrl = CALLBACK) {
    const customer = await w.clients.customers.create({ body: { merchant_customer_id: `attacks-${idemKey()}` } });
    if (customer.status !== 201) throw new Error('customer');
    const body = {
      account_id: w.accountId,
      country: 'US' as const,
      type: 'ACH_ENROLLMENT',
      callback_url: callbackUrl,
      payment_method: { vault_on_success: true, detail: { bank_transfer: { beneficiary_name: 'Ada', routing_number: '021000021', bank_account: '000123456789' } } },
    };
    const res = await w.clients.paymentMethods.enrollDirect({ params: { customer_id: customer.body.id }, body, headers: key() });
    if (res.status !== 200) throw new Error(`enrollment: ${JSON.stringify(res.body)}`);
    return res.body.redirect_url;
  }

  describe('framing', () => {
    it.concurrent("sets frame-ancestors 'none' on every page, found or not: checkout, result, challenge, payer page, enrollment, errors", async () => {
      const l = await link();
      const session = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId } });
      if (session.status !== 200) throw new Error('session');
      const paid = location(await payCard(l.checkout_url, APPROVE));
      const challenge = location(await payCard((await link()).checkout_url, CHALLENGE));
      const pages = [
        l.checkout_url,
        `/checkout/sessions/${session.body.checkout_session}`,
        `/checkout/links/${l.code}/payments/${paid.searchParams.get('payment_id')}`,
        challenge.toString(),
        await pix(),
        await enrollment(),
        '/checkout/links/nope',
        `/checkout/sessions/${crypto.randomUUID()}`,
        '/pay/nope',
        '/nope',
      ];
      for (const path of pages) {
        const res = await page(path);
        expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
        expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      }
    });
  });

  // A callback is followed only when it is an http(s) address without userinfo: the first row shows
  // the test would see one followed.
  describe.each([
    ['https://shop.example/back', true],
    ['http://127.0.0.1@evil.example/back', false],
    ['https://user:pass@evil.example/back', false],
    ['javascript:alert(document.domain)', false],
    ['ftp://evil.example/back', false],
    ['//evil.example/back', false],
    ['evil.example/back', false],
  ] as const)('a callback_url of %s', (callbackUrl, followed) => {
    const sentTo = (res: Response) => res.headers.get('location') ?? '';

    it.concurrent(`is ${followed ? '' : 'never '}where a link's checkout sends its buyer`, async () => {
      const l = await link({ callback_url: callbackUrl });
      const res = await payCard(l.checkout_url, APPROVE);
      expect(res.status).toBe(303);
      if (followed) expect(sentTo(res).startsWith(callbackUrl)).toBe(true);
      // Not followed, the buyer sees the payment's result page on the sandbox.
      else expect(`${location(res).origin}${location(res).pathname}`).toMatch(new RegExp(`^${sb.url}/checkout/links/${l.code}/payments/[^/]+$`));
    });

    it.concurrent(`is ${followed ? '' : 'never '}linked from a payer page`, async () => {
      const html = await (await page(await pix(callbackUrl))).text();
      expect(html.includes('data-callback')).toBe(followed);
      if (!followed) expect(html).not.toContain(`href="${callbackUrl}`);
    });

    it.concurrent(`is ${followed ? '' : 'never '}where a confirmed enrollment sends its payer`, async () => {
      const res = await post(await enrollment(callbackUrl), { outcome: 'ENROLLED' });
      if (followed) expect([res.status, sentTo(res)]).toEqual([303, callbackUrl]);
      else expect([res.status, res.headers.get('location')]).toEqual([200, null]);
    });
  });

  describe('a GET', () => {
    it.concurrent("repeats no side effect: an attempt's page sends the buyer to the result, never to the merchant again, and pays nothing more", async () => {
      const l = await link();
      const attempt = await attemptOf(l.checkout_url);
      const paid = location(await post(l.checkout_url, card(APPROVE, attempt)));
      expect(`${paid.origin}${paid.pathname}`).toBe('https://shop.example/return');
      const result = `${new URL(l.checkout_url).pathname}/payments/${paid.searchParams.get('payment_id')}`;
      for (let i = 0; i < 3; i += 1) {
        const again = await page(`${l.checkout_url}/attempts/${attempt}`);
        expect([again.status, location(again).pathname]).toEqual([303, result]);
        expect((await page(result)).status).toBe(200);
      }
      expect(await storedLink(l.code)).toMatchObject({ payments_number: 1 });
    });

    it.concurrent('of a challenge page answers nothing: the payment still waits for its payer', async () => {
      const challenge = location(await payCard((await link()).checkout_url, CHALLENGE));
      for (let i = 0; i < 2; i += 1) expect((await page(challenge.toString())).status).toBe(200);
      const id = (await storedLink(challenge.pathname.split('/')[3] ?? ''))?.last_payment_id ?? '';
      expect(await paymentOf(id)).toMatchObject({ status: 'PENDING', sub_status: 'WAITING_ADDITIONAL_STEP' });
    });
  });

  /**
   * A form's `attempt` pays the checkout it is posted to, and only that one: an attempt key is the
   * merchant's, so one made on another link or session of the merchant is refused (a page, 409)
   * rather than replaying that checkout's payment here, and its attempt page is not this checkout's.
   */
  describe('a checkout attempt', () => {
    const session = async (clients = w.clients, accountId = w.accountId) => {
      const s = await clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId, callback_url: 'https://other.example/back' } });
      if (s.status !== 200) throw new Error('session');
      return `${sb.url}/checkout/sessions/${s.body.checkout_session}`;
    };

    it.concurrent('made on one link neither pays another link or a session of the merchant nor shows them its payment', async () => {
      const a = await link();
      const b = await link({ callback_url: 'https://other.example/back' });
      const s = await session();
      const attempt = await attemptOf(a.checkout_url);
      const paidA = location(await post(a.checkout_url, card(APPROVE, attempt))).searchParams.get('payment_id');
      expect(paidA).toBeTruthy();

      for (const other of [b.checkout_url, s]) {
        const refused = await post(other, card(APPROVE, attempt));
        expect(refused.status).toBe(409);
        expect(refused.headers.get('location')).toBeNull();
        const html = await refused.text();
        expect(html).toContain('filled in on another checkout page');
        expect(html).not.toContain(paidA);
        expect(html).not.toContain(APPROVE);
        expect(html).toContain('data-card-form');

        const waited = await page(`${other}/attempts/${attempt}`);
        expect(waited.status).toBe(404);
        expect(waited.headers.get('location')).toBeNull();
        expect(await waited.text()).toContain('Payment attempt not found');
        // Nor does the other checkout show or answer the first one's payment.
        expect((await page(`${other}/payments/${paidA}`)).status).toBe(404);
        expect((await post(`${other}/attempts/${attempt}/challenge`, { otp: '1234' })).status).toBe(404);
      }
      expect(await storedLink(b.code)).toMatchObject({ payments_number: 0, status: 'CREATED' });
      expect(await storedLink(a.code)).toMatchObject({ payments_number: 1, last_payment_id: paidA });
      expect((await page(s)).status).toBe(200);
    });

    it.concurrent('made on a session of one merchant does not touch it when posted to a session of another merchant', async () => {
      const m = await newMerchant(sb.url);
      const c = clientsFor(sb.url, m);
      const mine = await session();
      const theirs = await session(c, m.account_ids[0] as string);
      const attempt = await attemptOf(mine);
      const paid = location(await post(mine, card(APPROVE, attempt)));
      const mineId = mine.split('/').at(-1);
      expect(paid.searchParams.get('checkout_session')).toBe(mineId);

      expect((await page(`${theirs}/attempts/${attempt}`)).status).toBe(404);
      // The other merchant's page takes the form as its own: a payment of its session, none of the first's.
      const other = location(await post(theirs, card(APPROVE, attempt)));
      expect(other.searchParams.get('checkout_session')).toBe(theirs.split('/').at(-1));
      expect(other.searchParams.get('payment_id')).not.toBe(paid.searchParams.get('payment_id'));
      expect(await c.payments.get({ params: { payment_id: paid.searchParams.get('payment_id') ?? '' } })).toMatchObject({ body: { code: 'PAYMENT_NOT_FOUND' } });
      expect(await paymentOf(paid.searchParams.get('payment_id') ?? '')).toMatchObject({ status: 'SUCCEEDED', checkout: { session: mineId } });
    });
  });

  describe('the 3-D Secure challenge of a checkout', () => {
    it.concurrent('is reachable only through the form that started it: not for a payment made through the API with the session', async () => {
      const session = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId } });
      if (session.status !== 200) throw new Error('session');
      const body = { ...fixtures.createPayment(session.body.checkout_session, CHALLENGE), account_id: w.accountId };
      const payment = await w.clients.payments.create({ body, headers: key() });
      if (payment.status !== 201) throw new Error(`payment: ${JSON.stringify(payment.body)}`);
      expect(payment.body).toMatchObject({ status: 'PENDING', sub_status: 'WAITING_ADDITIONAL_STEP' });
      const base = `${sb.url}/checkout/sessions/${session.body.checkout_session}`;
      // Neither the payment's page nor any attempt of the session answers its challenge.
      expect((await page(`${base}/payments/${payment.body.id}`)).status).toBe(409);
      expect((await post(`${base}/payments/${payment.body.id}/challenge`, { otp: '1234' })).status).toBe(404);
      expect((await post(`${base}/attempts/${crypto.randomUUID()}/challenge`, { otp: '1234' })).status).toBe(404);
      expect(await paymentOf(payment.body.id)).toMatchObject({ status: 'PENDING', sub_status: 'WAITING_ADDITIONAL_STEP' });
    });
  });
});
