import { describe, expect, it } from 'vitest';
import { fixtures, MINIMAL_PDF_BASE64 } from '@switchyard/contract/fixtures';
import type { Payment } from '@switchyard/contract';
import { clientsFor, idemKey, keysOf, newMerchant, pay, raw, refundPending, sandboxWithMerchant } from '../test-support/harness.js';

const w = sandboxWithMerchant();

const key = () => ({ 'x-idempotency-key': idemKey() });
const chargeOf = (p: Payment) => p.transactions?.id as string;

// Upstream's Create Payment answers (its "Card - With installments"
// schema) carry these as objects, integers and strings; the sandbox answered null. Spec §2.5 lets
// checkout and additional_data be null, and upstream fills them, so the sandbox does too.
describe('the payment body upstream types', () => {
  it('answers objects and strings, never null, for a DIRECT payment without session, payer or extras', async () => {
    const { checkout: _session, customer_payer: _payer, ...rest } = fixtures.createPayment();
    const card = rest.payment_method.detail?.card;
    if (card) delete card.installments;
    const created = await w.clients.payments.create({ body: { ...rest, account_id: w.accountId, workflow: 'DIRECT' }, headers: key() });
    if (created.status !== 201) throw new Error(`payment: ${JSON.stringify(created.body)}`);
    const p = created.body;
    const detail = p.payment_method.payment_method_detail?.card;
    expect(detail?.card_data?.three_d_secure.version).toBeNull();
    expect(detail).toMatchObject({
      installments: 1,
      first_installment_deferral: 0,
      installments_type: '',
      soft_descriptor: '',
      authorization_code: '',
      retrieval_reference_number: '',
      acquirer_reference_number: '',
      stored_credentials: { reason: '', usage: '', subscription_agreement_id: '' },
      card_data: { issuer_name: '', category: '', three_d_secure: { version: null, electronic_commerce_indicator: null } },
    });
    expect(p).toMatchObject({
      checkout: { session: '', sdk_action_required: false },
      payment_method: { token: '', vaulted_token: '' },
      customer_payer: {},
      additional_data: {},
      amount: { currency_conversion: null },
      routing_rules: { condition: { id: 0 } },
      callback_url: '',
      payment_link_id: '',
      payment_link_code: '',
      split: [],
      taxes: null,
      transactions_history: { id: p.transactions?.id },
    });
    expect(p.transactions).toMatchObject({
      description: 'Order 0001',
      merchant_reference: 'order-0001',
      reason: '',
      connection_data: { id: 'SANDBOX_GATEWAY' },
      payment_method: { token: '', detail: { card: { installments: 1, stored_credentials: { reason: '' } } } },
      provider_data: {
        sub_status: 'APPROVED',
        status_detail: '',
        iso8583_response_code: '00',
        iso8583_response_message: 'Approved or completed successfully',
        third_party_transaction_id: '',
        third_party_account_id: '',
        raw_response: { status: 'SUCCEEDED', response_code: 'SUCCEEDED', amount: { currency: 'ARS', value: 99.99 } },
      },
    });
  });

  it('fills three_d_secure for a frictionless 3DS card and gives a decline its ISO 8583 code', async () => {
    const frictionless = await pay(w.clients, w.merchant, { card: '4556557955726624' });
    expect(frictionless.payment_method.payment_method_detail?.card?.card_data?.three_d_secure).toMatchObject({ version: '2.2.0', electronic_commerce_indicator: '05', pares_status: 'Y' });
    const declined = await pay(w.clients, w.merchant, { card: '4507990000000010' });
    expect(declined.transactions?.provider_data).toMatchObject({ iso8583_response_code: '51', iso8583_response_message: 'Not sufficient funds' });
  });
});

describe('create payment: outcomes of the test cards', () => {
  it.each([
    ['4507990000000002', 'SUCCEEDED', 'APPROVED', 'SUCCEEDED'],
    ['4507990000000010', 'DECLINED', 'DECLINED', 'INSUFFICIENT_FUNDS'],
    ['5252440000000028', 'DECLINED', 'DECLINED', 'DECLINED_BY_BANK'],
    ['370000000000036', 'DECLINED', 'DECLINED', 'DO_NOT_HONOR'],
    ['3647166000000044', 'DECLINED', 'DECLINED', 'INVALID_SECURITY_CODE'],
    ['4507990000000051', 'DECLINED', 'DECLINED', 'INVALID_CARD_DATA'],
    ['4507990000000069', 'DECLINED', 'DECLINED', 'REPORTED_STOLEN'],
    ['4507990000000077', 'ERROR', 'ERROR', 'ERROR'],
    ['4111111111111111', 'SUCCEEDED', 'APPROVED', 'SUCCEEDED'],
    ['4000000000000002', 'DECLINED', 'DECLINED', 'DECLINED_BY_BANK'],
    // Outside upstream's test ranges the suffix means nothing: upstream approves this one in
    // Create Payment, example "Split marketplace" (upstream's notes, "Sandbox test data").
    ['4000000000000010', 'SUCCEEDED', 'APPROVED', 'SUCCEEDED'],
    ['4556557955726624', 'SUCCEEDED', 'APPROVED', 'SUCCEEDED'],
    ['4916994064252017', 'PENDING', 'WAITING_ADDITIONAL_STEP', 'CHALLENGE_REQUIRED'],
    ['5306889942833340', 'PENDING', 'WAITING_ADDITIONAL_STEP', 'CHALLENGE_REQUIRED'],
  ])('card %s → %s/%s (%s), a 2xx even when declined', async (card, status, subStatus, code) => {
    const payment = await pay(w.clients, w.merchant, { card });
    expect(payment).toMatchObject({ status, sub_status: subStatus, transactions: { response_code: code } });
  });

  it('lets the description name the outcome when the card does not', async () => {
    const payment = await pay(w.clients, w.merchant, { card: '5555555555554444', description: 'INSUFFICIENT_FUNDS' });
    expect(payment).toMatchObject({ status: 'DECLINED', transactions: { response_code: 'INSUFFICIENT_FUNDS' } });
  });

  it('lets card data win over the description', async () => {
    const payment = await pay(w.clients, w.merchant, { card: '4507990000000002', description: 'DO_NOT_HONOR' });
    expect(payment.status).toBe('SUCCEEDED');
  });

  it('masks the card: iin and lfd only, a stable fingerprint per w.merchant', async () => {
    const a = await pay(w.clients, w.merchant, { card: '4111111111111111' });
    const b = await pay(w.clients, w.merchant, { card: '4111111111111111' });
    const card = a.payment_method.payment_method_detail?.card?.card_data;
    expect(card).toMatchObject({ iin: '41111111', lfd: '1111', number_length: 16, security_code_length: 3, brand: 'VISA' });
    expect(JSON.stringify(a)).not.toContain('4111111111111111');
    expect(JSON.stringify(a)).not.toContain('"123"');
    expect(b.payment_method.payment_method_detail?.card?.card_data?.fingerprint).toBe(card?.fingerprint);
    const other = await newMerchant(w.sb.url);
    const c = await pay(clientsFor(w.sb.url, other), other, { card: '4111111111111111' });
    expect(c.payment_method.payment_method_detail?.card?.card_data?.fingerprint).not.toBe(card?.fingerprint);
  });

  // Upstream Create Payment: `checkout` is "not required for `DIRECT` or `REDIRECT`
  // payments" and its DIRECT examples send none; "required when `workflow` is ... `SDK_CHECKOUT` or
  // is not sent".
  it.each(['DIRECT', 'REDIRECT'] as const)('pays %s without a checkout session: country, amount and payer from the body', async (workflow) => {
    const { checkout: _session, ...withoutCheckout } = fixtures.createPayment();
    const body = { ...withoutCheckout, workflow, country: 'CO' as const, amount: { currency: 'COP', value: 5000 }, account_id: w.merchant.account_ids[0] as string };
    const res = await w.clients.payments.create({ body, headers: key() });
    expect(res).toMatchObject({ status: 201, body: { status: 'SUCCEEDED', workflow, country: 'CO', amount: { currency: 'COP', value: 5000 }, checkout: { session: '' } } });
  });

  // Upstream's Create Payment, example "Card - With 3DS direct", sends `address_line_2: ""`, and
  // upstream's schema sets no minimum on it.
  it('takes and echoes an empty billing_address.address_line_2', async () => {
    const billing_address = { address_line_1: 'Calle 34 # 56 - 78', address_line_2: '', city: 'Bogota', country: 'CO' as const, zip_code: '111111' };
    const body = { ...fixtures.createPayment(), workflow: 'DIRECT' as const, checkout: undefined, customer_payer: { billing_address }, account_id: w.merchant.account_ids[0] as string };
    const res = await w.clients.payments.create({ body, headers: key() });
    expect(res).toMatchObject({ status: 201, body: { customer_payer: { billing_address: { address_line_2: '' } } } });
  });

  // Upstream types token, vaulted_token and a split line's recipient_id plain strings, and its
  // subscription payment and split examples send them "" for "none".
  it('takes an empty token, an empty vaulted_token and an empty split recipient_id as not sent', async () => {
    const base = fixtures.createPayment();
    const body = {
      ...base,
      workflow: 'DIRECT' as const,
      checkout: undefined,
      account_id: w.accountId,
      payment_method: { ...base.payment_method, token: '', vaulted_token: '' },
      split_marketplace: [{ recipient_id: '', type: 'COMMISSION' as const, amount: { currency: 'ARS', value: 10 } }],
    };
    const res = await w.clients.payments.create({ body, headers: key() });
    expect(res).toMatchObject({ status: 201, body: { status: 'SUCCEEDED', payment_method: { token: '', vaulted_token: '' }, split_marketplace: [{ recipient_id: '' }] } });
  });

  it('still needs something to pay with when token and vaulted_token are empty', async () => {
    const body = { ...fixtures.createPayment(), workflow: 'DIRECT' as const, checkout: undefined, account_id: w.accountId, payment_method: { type: 'CARD' as const, token: '', vaulted_token: '' } };
    const res = await w.clients.payments.create({ body, headers: key() });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [expect.stringMatching(/^body\.payment_method: needs one of token, vaulted_token, detail\.card\.card_data or detail\.card\.external_providers_data/)] } });
  });

  // Upstream's Create Payment: `external_providers_data`, provider-issued tokens for one payment.
  describe('provider tokens (external_providers_data)', () => {
    const tokens = [
      { connection_id: '091cd992-a5ca-41e0-8957-05959b463e31', provider_id: 'PROVIDER_A', provider_token: 'tok_a_1' },
      { connection_id: 'f00d04b4-584f-4790-b51d-ceede8fd8f0f', provider_id: 'PROVIDER_B', provider_token: 'tok_b_1' },
    ];
    const withTokens = (description: string, list: unknown[] = tokens) => ({
      ...fixtures.createPayment(),
      description,
      workflow: 'DIRECT' as const,
      checkout: undefined,
      account_id: w.accountId,
      payment_method: { type: 'CARD' as const, detail: { card: { capture: true, external_providers_data: list as typeof tokens } } },
    });

    it('pays with them, approved as a card without a test number, and keeps neither token nor card number', async () => {
      const res = await w.clients.payments.create({ body: withTokens('Order 0001'), headers: key() });
      expect(res).toMatchObject({ status: 201, body: { status: 'SUCCEEDED', payment_method: { type: 'CARD', token: '', vaulted_token: '' } } });
      expect(JSON.stringify(res.body)).not.toContain('tok_a_1');
    });

    it('declines as the description asks, the same way every time', async () => {
      for (let i = 0; i < 2; i += 1) {
        const res = await w.clients.payments.create({ body: withTokens('INSUFFICIENT_FUNDS'), headers: key() });
        expect(res).toMatchObject({ status: 201, body: { status: 'DECLINED', transactions: { response_code: 'INSUFFICIENT_FUNDS' } } });
      }
    });

    it('refuses them beside card data, more than five, and a provider connection twice', async () => {
      const both = withTokens('Order 0001');
      const card = fixtures.createPayment().payment_method.detail?.card?.card_data;
      both.payment_method.detail.card = { ...both.payment_method.detail.card, card_data: card } as typeof both.payment_method.detail.card;
      expect(await w.clients.payments.create({ body: both, headers: key() })).toMatchObject({ status: 400, body: { messages: [expect.stringMatching(/^body\.payment_method: takes only one of/)] } });
      const six = Array.from({ length: 6 }, (_, i) => ({ ...tokens[0], provider_id: `PROVIDER_${i}` }));
      expect(await w.clients.payments.create({ body: withTokens('Order 0001', six), headers: key() })).toMatchObject({ status: 400, body: { messages: [expect.stringContaining('body.payment_method.detail.card.external_providers_data')] } });
      const twice = [tokens[0], { ...tokens[0], provider_token: 'tok_a_2' }];
      expect(await w.clients.payments.create({ body: withTokens('Order 0001', twice), headers: key() })).toMatchObject({
        status: 400,
        body: { messages: [expect.stringMatching(/^body\.payment_method\.detail\.card\.external_providers_data\[1\]: repeats provider_id and connection_id/)] },
      });
    });
  });

  it.each([undefined, 'SDK_CHECKOUT'] as const)('still demands a checkout session for workflow %s', async (workflow) => {
    const { checkout: _session, ...withoutCheckout } = fixtures.createPayment();
    const body = { ...withoutCheckout, ...(workflow ? { workflow } : {}), account_id: w.merchant.account_ids[0] as string };
    const res = await w.clients.payments.create({ body, headers: key() });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [expect.stringMatching(/^body\.checkout: is required unless workflow is DIRECT or REDIRECT/)] } });
  });

  it('takes a number that fails the Luhn check and declines the payment INVALID_CARD_DATA (upstream sets no Luhn rule)', async () => {
    const session = await w.clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: w.merchant.account_ids[0] as string } });
    if (session.status !== 200) throw new Error('setup');
    const body = { ...fixtures.createPayment(session.body.checkout_session, '4111111111111112'), account_id: w.merchant.account_ids[0] as string };
    const res = await w.clients.payments.create({ body, headers: key() });
    expect(res).toMatchObject({ status: 201, body: { status: 'DECLINED', transactions: { response_code: 'INVALID_CARD_DATA' } } });
  });

  it('authorizes only with capture false', async () => {
    const payment = await pay(w.clients, w.merchant, { capture: false, value: 50 });
    expect(payment).toMatchObject({ status: 'PENDING', sub_status: 'AUTHORIZED', amount: { captured: 0 }, transactions: { type: 'AUTHORIZE' } });
  });

  // Upstream's Retrieve Payment by ID: `transactions` is an array of every transaction (the spec
  // does not define this route, §4), and `transactions_history` and `raw_response` are boolean query
  // parameters, both "default false". `transactions_history` is one object (§2.5: nullable, object).
  it('reads a payment back with all its transactions, and the history and raw answer only when asked', async () => {
    const payment = await pay(w.clients, w.merchant);
    const read = await w.clients.payments.get({ params: { payment_id: payment.id } });
    expect(read).toMatchObject({ status: 200, body: { id: payment.id, status: 'SUCCEEDED', transactions: [{ id: payment.transactions?.id, type: 'PURCHASE' }], transactions_history: null } });
    if (read.status !== 200) throw new Error('read');
    expect(read.body.transactions).toHaveLength(1);
    expect(read.body.transactions[0]?.provider_data).not.toHaveProperty('raw_response');
    const asked = await w.clients.payments.get({ params: { payment_id: payment.id }, query: { transactions_history: 'true', raw_response: 'true' } });
    expect(asked).toMatchObject({
      status: 200,
      body: {
        transactions: [{ type: 'PURCHASE', provider_data: { raw_response: { status: 'SUCCEEDED' } } }],
        transactions_history: { id: payment.transactions?.id, type: 'PURCHASE', provider_data: { raw_response: { status: 'SUCCEEDED' } } },
      },
    });
  });

  it('refuses a retrieve query flag that is not a boolean, saying what it takes', async () => {
    const payment = await pay(w.clients, w.merchant);
    const res = await raw(w.sb.url, `/v1/payments/${payment.id}?transactions_history=yes&raw_response=maybe`, { headers: keysOf(w.merchant) });
    expect(res).toMatchObject({
      status: 400,
      body: { code: 'INVALID_REQUEST', messages: ['query.transactions_history: must be true or false, received "yes"', 'query.raw_response: must be true or false, received "maybe"'] },
    });
  });

  it("treats another w.merchant's payment as not found", async () => {
    const payment = await pay(w.clients, w.merchant);
    const other = clientsFor(w.sb.url, await newMerchant(w.sb.url));
    expect(await other.payments.get({ params: { payment_id: payment.id } })).toMatchObject({ status: 400, body: { code: 'PAYMENT_NOT_FOUND' } });
    const refund = await other.payments.refund({ params: { id: payment.id, transaction_id: chargeOf(payment) }, body: fixtures.refund(), headers: key() });
    expect(refund).toMatchObject({ status: 400, body: { code: 'PAYMENT_NOT_FOUND' } });
  });
});

/**
 * The spec has no capture endpoint, so upstream's Capture Authorization governs: the
 * request requires merchant_reference, reason and amount, and the answer is the CAPTURE transaction
 * with the payment inside (the envelope cancel-or-refund answers), not the payment.
 */
describe('capture (upstream Capture Authorization)', () => {
  const capture = (p: Payment, body: Partial<ReturnType<typeof fixtures.capture>> = {}) =>
    w.clients.payments.capture({ params: { payment_id: p.id, transaction_id: chargeOf(p) }, body: { ...fixtures.capture(), ...body }, headers: key() });

  it('captures in full: 200 with the CAPTURE transaction envelope and the payment CAPTURED inside', async () => {
    const p = await pay(w.clients, w.merchant, { capture: false });
    const res = await capture(p);
    expect(res).toMatchObject({
      status: 200,
      body: {
        id: expect.any(String),
        type: 'CAPTURE',
        status: 'SUCCEEDED',
        category: 'CARD',
        amount: { value: 99.99, currency: 'ARS', captured: 99.99, refunded: 0 },
        merchant_reference: 'capture-0001',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        provider_data: expect.any(Object),
        response_code: 'SUCCEEDED',
        response_message: 'Transaction successful',
        payment: { id: p.id, status: 'SUCCEEDED', sub_status: 'CAPTURED', amount: { value: 99.99, captured: 99.99 } },
      },
    });
    if (res.status !== 200) throw new Error('capture');
    expect(res.body.id).not.toBe(chargeOf(p));
    expect(Object.keys(res.body).sort()).toEqual(
      ['amount', 'category', 'created_at', 'id', 'merchant_reference', 'payment', 'provider_data', 'response_code', 'response_message', 'status', 'type', 'updated_at'],
    );
  });

  it('captures partially: the envelope carries the captured part, the payment PARTIALLY_CAPTURED', async () => {
    const p = await pay(w.clients, w.merchant, { capture: false, value: 50 });
    const res = await capture(p, { merchant_reference: 'cap-1', amount: { currency: 'ARS', value: 30 } });
    expect(res).toMatchObject({
      status: 200,
      body: { type: 'CAPTURE', status: 'SUCCEEDED', merchant_reference: 'cap-1', amount: { value: 30 }, payment: { status: 'SUCCEEDED', sub_status: 'PARTIALLY_CAPTURED', amount: { value: 50, captured: 30 } } },
    });
  });

  it.each(['merchant_reference', 'reason', 'amount'] as const)('refuses a capture without %s: 400 naming the field, payment still AUTHORIZED', async (field) => {
    const p = await pay(w.clients, w.merchant, { capture: false });
    const body: Record<string, unknown> = { ...fixtures.capture() };
    delete body[field];
    const res = await raw(w.sb.url, `/v1/payments/${p.id}/transactions/${chargeOf(p)}/capture`, {
      method: 'POST',
      headers: { ...keysOf(w.merchant), 'content-type': 'application/json', 'x-idempotency-key': idemKey() },
      body: JSON.stringify(body),
    });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [expect.stringMatching(new RegExp(`^body\\.${field}: `))] } });
    expect(await w.clients.payments.get({ params: { payment_id: p.id } })).toMatchObject({ status: 200, body: { status: 'PENDING', sub_status: 'AUTHORIZED' } });
  });

  it('refuses more than the authorization, and a second capture', async () => {
    const p = await pay(w.clients, w.merchant, { capture: false, value: 50 });
    expect(await capture(p, { amount: { currency: 'ARS', value: 50.01 } })).toMatchObject({ status: 400, body: { code: 'INVALID_AMOUNT' } });
    expect(await capture(p, { amount: { currency: 'ARS', value: 50 } })).toMatchObject({ status: 200, body: { payment: { sub_status: 'CAPTURED' } } });
    expect(await capture(p, { amount: { currency: 'ARS', value: 50 } })).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });
  });
});

describe('refund (§4.2)', () => {
  const refund = (p: Payment, body: Partial<ReturnType<typeof fixtures.refund>> = {}, transactionId = chargeOf(p)) =>
    w.clients.payments.refund({ params: { id: p.id, transaction_id: transactionId }, body: { ...fixtures.refund(), ...body }, headers: key() });

  it('refunds in full without amount: REFUNDED/REFUNDED with the REFUND transaction', async () => {
    const p = await pay(w.clients, w.merchant);
    const res = await refund(p);
    expect(res).toMatchObject({
      status: 200,
      body: { status: 'REFUNDED', sub_status: 'REFUNDED', amount: { captured: 99.99, refunded: 99.99 }, transactions: { type: 'REFUND', status: 'SUCCEEDED', amount: 99.99, merchant_reference: 'refund-0001' } },
    });
  });

  it('refunds partially: SUCCEEDED/PARTIALLY_REFUNDED, and three 33.33 refunds of 99.99 leave exactly 0', async () => {
    const p = await pay(w.clients, w.merchant, { value: 99.99 });
    const first = await refund(p, { amount: { currency: 'ARS', value: 33.33 } });
    expect(first).toMatchObject({ status: 200, body: { status: 'SUCCEEDED', sub_status: 'PARTIALLY_REFUNDED', amount: { refunded: 33.33 } } });
    await refund(p, { amount: { currency: 'ARS', value: 33.33 } });
    const last = await refund(p, { amount: { currency: 'ARS', value: 33.33 } });
    expect(last).toMatchObject({ status: 200, body: { status: 'REFUNDED', sub_status: 'REFUNDED', amount: { refunded: 99.99 } } });
    expect(await refund(p, { amount: { currency: 'ARS', value: 0.0001 } })).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });
  });

  it('refuses more than the refundable amount (INVALID_AMOUNT)', async () => {
    const p = await pay(w.clients, w.merchant, { value: 10 });
    await refund(p, { amount: { currency: 'ARS', value: 6 } });
    expect(await refund(p, { amount: { currency: 'ARS', value: 4.0001 } })).toMatchObject({ status: 400, body: { code: 'INVALID_AMOUNT' } });
    expect(await refund(p, { amount: { currency: 'ARS', value: 4 } })).toMatchObject({ status: 200, body: { status: 'REFUNDED' } });
  });

  it('refuses another currency', async () => {
    const p = await pay(w.clients, w.merchant);
    expect(await refund(p, { amount: { currency: 'USD', value: 1 } })).toMatchObject({ status: 400, body: { code: 'INVALID_AMOUNT' } });
  });

  it('refuses a transaction that is not this payment\'s (TRANSACTION_NOT_FOUND) or not a captured charge (INVALID_TRANSACTION)', async () => {
    const p = await pay(w.clients, w.merchant);
    expect(await refund(p, {}, '00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 400, body: { code: 'TRANSACTION_NOT_FOUND' } });
    const refunded = await refund(p, { amount: { currency: 'ARS', value: 1 } });
    if (refunded.status !== 200) throw new Error('setup');
    expect(await refund(p, {}, chargeOf(refunded.body))).toMatchObject({ status: 400, body: { code: 'INVALID_TRANSACTION' } });
    const authorized = await pay(w.clients, w.merchant, { capture: false });
    expect(await refund(authorized)).toMatchObject({ status: 400, body: { code: 'INVALID_TRANSACTION' } });
    const declined = await pay(w.clients, w.merchant, { card: '4507990000000010' });
    expect(await refund(declined)).toMatchObject({ status: 400, body: { code: 'INVALID_TRANSACTION' } });
  });

  it('answers an unknown payment with PAYMENT_NOT_FOUND', async () => {
    const res = await w.clients.payments.refund({
      params: { id: '00000000-0000-4000-8000-000000000000', transaction_id: '00000000-0000-4000-8000-000000000001' },
      body: fixtures.refund(),
      headers: key(),
    });
    expect(res).toMatchObject({ status: 400, body: { code: 'PAYMENT_NOT_FOUND' } });
  });

  it('never refunds more than captured under 20 concurrent partial refunds', async () => {
    const p = await pay(w.clients, w.merchant, { value: 100 });
    const results = await Promise.all(Array.from({ length: 20 }, () => refund(p, { amount: { currency: 'ARS', value: 15 } })));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(ok).toBeLessThanOrEqual(6);
    for (const r of results.filter((x) => x.status !== 200)) expect(['INVALID_AMOUNT', 'INVALID_STATE']).toContain((r.body as { code: string }).code);
    const read = await w.clients.payments.get({ params: { payment_id: p.id } });
    if (read.status !== 200) throw new Error('read');
    expect(read.body.amount.refunded).toBe(15 * ok);
    expect(read.body.amount.refunded).toBeLessThanOrEqual(100);
  });

  it('refuses a refund while another is in progress (slow provider)', async () => {
    const p = await pay(w.clients, w.merchant, { value: 100 });
    // The provider's latency is the window in which the refund is in progress: the poll that sees it
    // pending, the refused refund and the read must all fit in it. Three requests take milliseconds,
    // but 400 ms was too short on a machine 20 times slower; the test waits the latency out anyway.
    const slow = raw(w.sb.url, `/v1/payments/${p.id}/transactions/${chargeOf(p)}/refund`, {
      method: 'POST',
      headers: { ...keysOf(w.merchant), 'content-type': 'application/json', 'x-idempotency-key': idemKey(), 'x-sandbox-provider-latency-ms': '5000' },
      body: JSON.stringify({ merchant_reference: 'slow-refund', amount: { currency: 'ARS', value: 10 } }),
    });
    await refundPending(w.clients, p.id);
    const during = await refund(p, { amount: { currency: 'ARS', value: 10 } });
    expect(during).toMatchObject({ status: 400, body: { code: 'INVALID_STATE', messages: [expect.stringContaining('already in progress')] } });
    const pending = await w.clients.payments.get({ params: { payment_id: p.id } });
    expect(pending).toMatchObject({ status: 200, body: { transactions: [{ type: 'PURCHASE' }, { type: 'REFUND', status: 'PENDING' }] } });
    expect(await slow).toMatchObject({ status: 200, body: { sub_status: 'PARTIALLY_REFUNDED' } });
    expect(await refund(p, { amount: { currency: 'ARS', value: 10 } })).toMatchObject({ status: 200, body: { amount: { refunded: 20 } } });
  });
});

describe('cancel or refund (§4.6)', () => {
  const cancelOrRefund = (p: Payment, body: Partial<ReturnType<typeof fixtures.cancelOrRefund>> = {}) =>
    w.clients.payments.cancelOrRefund({ params: { payment_id: p.id }, body: { ...fixtures.cancelOrRefund(), ...body }, headers: key() });

  it('cancels an uncaptured payment (201, CANCELED/CANCELED, CANCEL transaction)', async () => {
    const p = await pay(w.clients, w.merchant, { capture: false });
    const res = await cancelOrRefund(p);
    expect(res).toMatchObject({ status: 201, body: { type: 'CANCEL', status: 'SUCCEEDED', payment: { status: 'CANCELED', sub_status: 'CANCELED' } } });
    expect(await cancelOrRefund(p)).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });
  });

  it('refunds a captured payment in full, defaulting merchant_reference to merchant_order_id', async () => {
    const p = await pay(w.clients, w.merchant);
    const res = await cancelOrRefund(p);
    expect(res).toMatchObject({
      status: 201,
      body: { type: 'REFUND', status: 'REFUNDED', merchant_reference: 'order-0001', amount: { value: 99.99, currency: 'ARS' }, payment: { status: 'REFUNDED', sub_status: 'REFUNDED' } },
    });
  });

  it('refunds a captured payment partially with amount', async () => {
    const p = await pay(w.clients, w.merchant);
    const res = await cancelOrRefund(p, { amount: { currency: 'ARS', value: 9.99 }, merchant_reference: 'partial-1' });
    expect(res).toMatchObject({ status: 201, body: { type: 'REFUND', status: 'SUCCEEDED', merchant_reference: 'partial-1', payment: { sub_status: 'PARTIALLY_REFUNDED', amount: { refunded: 9.99 } } } });
  });

  it('refuses a partial amount on an uncaptured payment, and a declined payment', async () => {
    const p = await pay(w.clients, w.merchant, { capture: false });
    expect(await cancelOrRefund(p, { amount: { currency: 'ARS', value: 1 } })).toMatchObject({ status: 400, body: { code: 'INVALID_AMOUNT' } });
    const declined = await pay(w.clients, w.merchant, { card: '4507990000000028' });
    expect(await cancelOrRefund(declined)).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });
  });
});

describe('chargebacks and disputes (§4.9)', () => {
  const dispute = (p: Payment, transactionId: string, content = MINIMAL_PDF_BASE64) =>
    w.clients.payments.dispute({
      params: { payment_id: p.id, transaction_id: transactionId },
      body: { ...fixtures.dispute(), account_id: w.merchant.account_ids[0] as string, evidence: [{ ...fixtures.dispute().evidence[0]!, content }] },
      headers: key(),
    });

  it('takes evidence against a chargeback: IN_DISPUTE/PENDING_REVIEW, chargeback CREATED; WON restores the payment', async () => {
    const p = await pay(w.clients, w.merchant);
    const cb = await w.clients.sandbox.chargeback({ params: { payment_id: p.id }, body: {} });
    expect(cb).toMatchObject({ status: 200, body: { status: 'IN_DISPUTE', sub_status: 'RECEIVED', transactions: { type: 'CHARGEBACK', status: 'CREATED', amount: 99.99 } } });
    if (cb.status !== 200) return;
    const res = await dispute(p, chargeOf(cb.body));
    expect(res).toMatchObject({ status: 200, body: { status: 'IN_DISPUTE', sub_status: 'PENDING_REVIEW', transactions: { type: 'CHARGEBACK', status: 'CREATED' } } });
    expect(await dispute(p, chargeOf(cb.body))).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });
    const won = await w.clients.sandbox.disputeOutcome({ params: { payment_id: p.id }, body: { outcome: 'WON' } });
    expect(won).toMatchObject({ status: 200, body: { status: 'SUCCEEDED', sub_status: 'APPROVED', transactions: { type: 'CHARGEBACK', status: 'WON' } } });
  });

  it('LOST on the whole amount ends CHARGEBACK/LOST; on part of it SUCCEEDED/PARTIALLY_CHARGEBACKED', async () => {
    const full = await pay(w.clients, w.merchant);
    await w.clients.sandbox.chargeback({ params: { payment_id: full.id }, body: {} });
    expect(await w.clients.sandbox.disputeOutcome({ params: { payment_id: full.id }, body: { outcome: 'LOST' } })).toMatchObject({
      status: 200,
      body: { status: 'CHARGEBACK', sub_status: 'LOST', transactions: { status: 'LOST' } },
    });
    const part = await pay(w.clients, w.merchant, { value: 100 });
    await w.clients.sandbox.chargeback({ params: { payment_id: part.id }, body: { amount: 40 } });
    expect(await w.clients.sandbox.disputeOutcome({ params: { payment_id: part.id }, body: { outcome: 'LOST' } })).toMatchObject({
      status: 200,
      body: { status: 'SUCCEEDED', sub_status: 'PARTIALLY_CHARGEBACKED' },
    });
  });

  it('accepts only a chargeback transaction', async () => {
    const p = await pay(w.clients, w.merchant);
    expect(await dispute(p, chargeOf(p))).toMatchObject({ status: 400, body: { code: 'INVALID_TRANSACTION' } });
  });

  it('accepts only PDF evidence', async () => {
    const p = await pay(w.clients, w.merchant);
    const cb = await w.clients.sandbox.chargeback({ params: { payment_id: p.id }, body: {} });
    if (cb.status !== 200) throw new Error('setup');
    const png = Buffer.from('\x89PNG\r\n\x1a\n0000').toString('base64');
    expect(await dispute(p, chargeOf(cb.body), png)).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: ['evidence[0].content: is not a PDF document (it must start with %PDF)'] } });
  });

  it('refuses evidence over 1 MB', async () => {
    const p = await pay(w.clients, w.merchant);
    const cb = await w.clients.sandbox.chargeback({ params: { payment_id: p.id }, body: {} });
    if (cb.status !== 200) throw new Error('setup');
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1024 * 1024)]).toString('base64');
    const res = await dispute(p, chargeOf(cb.body), big);
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [expect.stringContaining('evidence[0].content')] } });
  });

  it('blocks refunds while a chargeback is in process (CHARGEBACK_IN_PROCESS)', async () => {
    const p = await pay(w.clients, w.merchant);
    await w.clients.sandbox.chargeback({ params: { payment_id: p.id }, body: { amount: 10 } });
    const res = await w.clients.payments.refund({ params: { id: p.id, transaction_id: p.transactions?.id as string }, body: fixtures.refund(), headers: key() });
    expect(res).toMatchObject({ status: 400, body: { code: 'CHARGEBACK_IN_PROCESS' } });
  });

  it('refuses a chargeback above what is still captured', async () => {
    const p = await pay(w.clients, w.merchant, { value: 10 });
    expect(await w.clients.sandbox.chargeback({ params: { payment_id: p.id }, body: { amount: 10.0001 } })).toMatchObject({ status: 400, body: { code: 'INVALID_AMOUNT' } });
  });
});
