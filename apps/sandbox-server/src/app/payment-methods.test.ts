import { describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { clientsFor, idemKey, newMerchant, sandboxWithMerchant } from '../test-support/harness.js';

const w = sandboxWithMerchant();

const key = () => ({ 'x-idempotency-key': idemKey() });

async function customer() {
  const res = await w.clients.customers.create({ body: { merchant_customer_id: `cust-${idemKey()}` } });
  if (res.status !== 201) throw new Error('setup');
  return res.body;
}

async function session(customerId: string) {
  const res = await w.clients.customers.createSession({ body: { account_id: w.accountId, country: 'AR', customer_id: customerId } });
  if (res.status !== 201) throw new Error('setup');
  return res.body.customer_session;
}

const card = (number: string, extra: Record<string, unknown> = {}) => ({ number, expiration_month: 11, expiration_year: 2030, security_code: '123', holder_name: 'ADA LOVELACE', ...extra });

async function enrollDirect(customerId: string, number = '4111111111111111') {
  const res = await w.clients.paymentMethods.enrollDirect({
    params: { customer_id: customerId },
    body: { ...fixtures.enrollDirect(), account_id: w.accountId, card_data: { ...fixtures.enrollDirect().card_data!, number } },
    headers: key(),
  });
  if (res.status !== 200) throw new Error(`enroll: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('direct enrollment (§4.3)', () => {
  it('enrolls (200, ENROLLED) with masked card data and a vaulted token', async () => {
    const c = await customer();
    const method = await enrollDirect(c.id);
    expect(method).toMatchObject({ status: 'ENROLLED', type: 'CARD', card_data: { iin: '41111111', lfd: '1111', number_length: 16, security_code_length: 3, brand: 'VISA', expiration_year: 28 } });
    expect(method.vaulted_token).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(method)).not.toContain('4111111111111111');
  });

  it('gives the same card two distinct vaulted tokens and one fingerprint', async () => {
    const c = await customer();
    const a = await enrollDirect(c.id);
    const b = await enrollDirect(c.id);
    expect(a.vaulted_token).not.toBe(b.vaulted_token);
    expect(a.card_data?.fingerprint).toBe(b.card_data?.fingerprint);
  });

  it('refuses expired cards and unknown customers; a number failing the Luhn check fails its verification', async () => {
    const c = await customer();
    const body = fixtures.enrollDirect();
    const mistyped = { ...body, account_id: w.accountId, card_data: { ...body.card_data!, number: '4111111111111112' }, verify: { vault_on_success: true } };
    const bad = await w.clients.paymentMethods.enrollDirect({ params: { customer_id: c.id }, body: mistyped, headers: key() });
    expect(bad).toMatchObject({ status: 200, body: { status: 'DECLINED' } });
    const expired = await w.clients.paymentMethods.enrollDirect({ params: { customer_id: c.id }, body: { ...body, account_id: w.accountId, card_data: { ...body.card_data!, expiration_year: 20 } }, headers: key() });
    expect(expired).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: [expect.stringContaining('expired')] } });
    const unknown = await w.clients.paymentMethods.enrollDirect({ params: { customer_id: '00000000-0000-4000-8000-000000000000' }, body: { ...body, account_id: w.accountId }, headers: key() });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'CUSTOMER_NOT_FOUND' } });
  });

  // Upstream: Enroll Payment Method (direct), 201 "With Verify".
  it('with verify.vault_on_success answers the VERIFY payment in verify.payment', async () => {
    const c = await customer();
    const body = fixtures.enrollDirect();
    const res = await w.clients.paymentMethods.enrollDirect({
      params: { customer_id: c.id },
      body: { ...body, account_id: w.accountId, country: 'US', verify: { vault_on_success: true, currency: 'USD', metadata: [{ key: 'order_ref', value: 'ABC-123' }] } },
      headers: key(),
    });
    expect(res).toMatchObject({ status: 200, body: { status: 'ENROLLED', verify: { vault_on_success: true, currency: 'USD' } } });
    if (res.status !== 200) return;
    expect(res.body.verify.payment).toMatchObject({
      account_id: w.accountId,
      status: 'SUCCEEDED',
      sub_status: 'VERIFIED',
      merchant_order_id: `VERIFY_CARD_${res.body.vaulted_token}`,
      amount: { currency: 'USD', value: 0 },
      metadata: [{ key: 'order_ref', value: 'ABC-123' }],
      transactions: [{ type: 'VERIFY', status: 'SUCCEEDED' }],
    });
  });

  it('pays with the vaulted token, with the test card outcome', async () => {
    const c = await customer();
    const approved = await enrollDirect(c.id, '4507990000000002');
    const declined = await enrollDirect(c.id, '4507990000000036');
    const pay = async (vaultedToken: string) => {
      const s = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId } });
      if (s.status !== 200) throw new Error('setup');
      return w.clients.payments.create({
        body: { ...fixtures.createPayment(s.body.checkout_session), account_id: w.accountId, payment_method: { type: 'CARD', vaulted_token: vaultedToken } },
        headers: key(),
      });
    };
    expect(await pay(approved.vaulted_token)).toMatchObject({ status: 201, body: { status: 'SUCCEEDED', payment_method: { vaulted_token: approved.vaulted_token, payment_method_detail: { card: { card_data: { lfd: '0002' } } } } } });
    expect(await pay(declined.vaulted_token)).toMatchObject({ status: 201, body: { status: 'DECLINED', transactions: { response_code: 'DO_NOT_HONOR' } } });
    expect(await pay('no-such-token')).toMatchObject({ status: 400, body: { code: 'PAYMENT_METHOD_NOT_FOUND' } });
  });

  // Spec §2.4 (callback_url a string, card_data an object with issuer, both not "nullable");
  // where it is silent, upstream's 201 schema (Enroll Payment Method (direct)): parent_type,
  // redirect_url and provider_data documented, verify.currency only with a verification.
  it('answers every field §2.4 and upstream document, as objects and strings rather than null', async () => {
    const c = await customer();
    const method = await enrollDirect(c.id);
    expect(method).toMatchObject({ callback_url: '', parent_type: 'CARD', redirect_url: '', action: null, provider_data: {}, card_data: { issuer: 'VISA SANDBOX ISSUER' } });
    const nameless = await w.clients.paymentMethods.enrollDirect({ params: { customer_id: c.id }, body: { ...fixtures.enrollDirect(), account_id: w.accountId, card_data: card('4111111111111111', { holder_name: undefined, expiration_year: 30 }) }, headers: key() });
    expect(nameless).toMatchObject({ status: 200, body: { card_data: { holder_name: '' } } });
    expect(method.verify).toEqual({ vault_on_success: false, payment: null });
  });
});

// Upstream: Enroll Payment Method (direct), "ACH Enrollment": READY_TO_ENROLL, action REDIRECT_URL
// and a redirect_url where the payer confirms.
describe('direct enrollment of a bank account', () => {
  const achBody = (extra: Record<string, unknown> = {}) => ({
    account_id: w.accountId,
    country: 'US' as const,
    type: 'ACH_ENROLLMENT',
    payment_method: { vault_on_success: true, detail: { bank_transfer: { beneficiary_name: 'Ada', routing_number: '021000021', bank_account: '000123456789' } } },
    ...extra,
  });
  async function enrollAch(extra: Record<string, unknown> = {}) {
    const c = await customer();
    const res = await w.clients.paymentMethods.enrollDirect({ params: { customer_id: c.id }, body: achBody(extra), headers: key() });
    if (res.status !== 200) throw new Error(`enroll: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  const answer = (url: string, outcome: string) =>
    fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ outcome }).toString() });
  const payWith = async (vaultedToken: string) => {
    const s = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId } });
    if (s.status !== 200) throw new Error('setup');
    return w.clients.payments.create({ body: { ...fixtures.createPayment(s.body.checkout_session), account_id: w.accountId, payment_method: { type: 'CARD', vaulted_token: vaultedToken } }, headers: key() });
  };

  it('waits for the payer on a real sandbox page, then is ENROLLED with its enroll webhook and can pay', async () => {
    const hook = await w.clients.webhooks.create({ body: { account_id: w.accountId, name: `ach-${idemKey()}`, url: 'http://127.0.0.1:9/hooks', enrollment_triggers: ['ENROLL'] } });
    expect(hook.status).toBe(201);
    const method = await enrollAch({ callback_url: 'https://merchant.example.com/enrolled' });
    expect(method).toMatchObject({ status: 'READY_TO_ENROLL', action: 'REDIRECT_URL', card_data: {}, parent_type: 'BANK_TRANSFER', verify: { vault_on_success: true, payment: null } });
    expect(method.redirect_url?.startsWith(`${w.sb.url}/enrollments/`)).toBe(true);
    expect(await payWith(method.vaulted_token)).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });

    const page = await fetch(method.redirect_url as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('READY_TO_ENROLL');
    const confirmed = await answer(method.redirect_url as string, 'ENROLLED');
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('https://merchant.example.com/enrolled');
    expect(await (await fetch(method.redirect_url as string)).text()).toContain('ENROLLED');

    const methodId = (method.redirect_url as string).split('/').pop() as string;
    const events = await w.clients.sandbox.listEvents({ query: { type: 'enrollment.enroll', resource_id: methodId } });
    expect(events).toMatchObject({ status: 200, body: [{ data: { status: 'ENROLLED' } }] });
    const eventId = events.status === 200 ? events.body[0]?.id : undefined;
    const deliveries = await w.clients.sandbox.listWebhookDeliveries({ query: {} });
    expect(deliveries.status === 200 && deliveries.body.some((d) => d.event_id === eventId && d.event_type === 'enrollment.enroll')).toBe(true);
    expect(await payWith(method.vaulted_token)).toMatchObject({ status: 201 });
    expect(await answer(method.redirect_url as string, 'DECLINED')).toMatchObject({ status: 400 });
  });

  it('ends DECLINED when the payer declines on the page, and cannot pay', async () => {
    const method = await enrollAch();
    expect(method.callback_url).toBe('');
    const declined = await answer(method.redirect_url as string, 'DECLINED');
    expect(declined.status).toBe(200);
    expect(await declined.text()).toContain('DECLINED');
    expect(await payWith(method.vaulted_token)).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });
    expect((await fetch(`${w.sb.url}/enrollments/nobody/${method.vaulted_token}`)).status).toBe(404);
  });
});

describe('session enrollment (§4.1) and the SDK step', () => {
  it('creates READY_TO_ENROLL (201), then the SDK step enrolls the card', async () => {
    const c = await customer();
    const s = await session(c.id);
    const created = await w.clients.paymentMethods.enrollInSession({ params: { customer_session: s }, body: { ...fixtures.enrollInSession(), account_id: w.accountId }, headers: key() });
    expect(created).toMatchObject({ status: 201, body: { status: 'READY_TO_ENROLL', enrollment: { session: s, sdk_required_action: true }, vaulted_token: null } });
    if (created.status !== 201) return;
    // The session's customer as upstream types a payer: strings "" and objects left out when not sent (docs/fidelity.md, "Absent values").
    expect(created.body.customer_payer).toEqual({ first_name: '', last_name: '', email: '', gender: '', date_of_birth: '' });
    const done = await w.clients.sandbox.completeEnrollment({ params: { customer_session: s, payment_method_id: created.body.id }, body: { card: card('4111111111111111') } });
    expect(done).toMatchObject({ status: 200, body: { status: 'ENROLLED', enrollment: { sdk_required_action: false } } });
    if (done.status === 200) expect(done.body.vaulted_token).toMatch(/^[0-9a-f-]{36}$/);
    const again = await w.clients.sandbox.completeEnrollment({ params: { customer_session: s, payment_method_id: created.body.id }, body: { card: card('4111111111111111') } });
    expect(again).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });
  });

  it('declines by test card', async () => {
    const c = await customer();
    const s = await session(c.id);
    const created = await w.clients.paymentMethods.enrollInSession({ params: { customer_session: s }, body: { ...fixtures.enrollInSession(), account_id: w.accountId }, headers: key() });
    if (created.status !== 201) throw new Error('setup');
    const done = await w.clients.sandbox.completeEnrollment({ params: { customer_session: s, payment_method_id: created.body.id }, body: { card: card('4507990000000069') } });
    expect(done).toMatchObject({ status: 200, body: { status: 'DECLINED', vaulted_token: null } });
  });

  it('unenrolls the earlier enrollment when the same card comes back with a new expiry', async () => {
    const c = await customer();
    const enroll = async (expiration_year: number) => {
      const s = await session(c.id);
      const created = await w.clients.paymentMethods.enrollInSession({ params: { customer_session: s }, body: { ...fixtures.enrollInSession(), account_id: w.accountId }, headers: key() });
      if (created.status !== 201) throw new Error('setup');
      const done = await w.clients.sandbox.completeEnrollment({ params: { customer_session: s, payment_method_id: created.body.id }, body: { card: card('4111111111111111', { expiration_year }) } });
      if (done.status !== 200) throw new Error('setup');
      return done.body;
    };
    const first = await enroll(2030);
    const second = await enroll(2031);
    expect(second.status).toBe('ENROLLED');
    const events = await w.clients.sandbox.listEvents({ query: { type: 'enrollment.unenroll', resource_id: first.id } });
    expect(events).toMatchObject({ status: 200, body: [{ data: { replaced_by: second.id } }] });
    const s2 = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.accountId } });
    if (s2.status !== 200) throw new Error('setup');
    const payOld = await w.clients.payments.create({
      body: { ...fixtures.createPayment(s2.body.checkout_session), account_id: w.accountId, payment_method: { type: 'CARD', vaulted_token: first.vaulted_token as string } },
      headers: key(),
    });
    expect(payOld).toMatchObject({ status: 400, body: { code: 'INVALID_STATE', messages: [expect.stringContaining('UNENROLLED')] } });
  });

  it('refuses an unknown or foreign session and a non-enrollable type', async () => {
    const unknown = await w.clients.paymentMethods.enrollInSession({
      params: { customer_session: '00000000-0000-4000-8000-000000000000' },
      body: { ...fixtures.enrollInSession(), account_id: w.accountId },
      headers: key(),
    });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'CUSTOMER_SESSION_NOT_FOUND' } });
    const c = await customer();
    const s = await session(c.id);
    const other = await newMerchant(w.sb.url);
    const foreign = await clientsFor(w.sb.url, other).paymentMethods.enrollInSession({
      params: { customer_session: s },
      body: { ...fixtures.enrollInSession(), account_id: other.account_ids[0] as string },
      headers: key(),
    });
    expect(foreign).toMatchObject({ status: 400, body: { code: 'CUSTOMER_SESSION_NOT_FOUND' } });
    const bare = await w.clients.paymentMethods.enrollInSession({ params: { customer_session: s }, body: { ...fixtures.enrollInSession(), account_id: w.accountId, payment_method_type: 'ACMEPAY' }, headers: key() });
    expect(bare).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS' } });
  });
});
