import { describe, expect, it } from 'vitest';
import type { CustomerSession } from '@switchyard/contract';
import { cardOutcome, maskCard, TEST_CARDS } from './cards.js';
import { chargeOutcome, completeEnrollment, enrollDirect, enrollInSession, replacedEnrollments, requirePayable, settleDirectEnrollment, type ReadCard } from './enrollment.js';
import type { PaymentMethodState } from './payment-method-state.js';

const NOW = '2026-01-01T00:00:00.000Z';

const session: CustomerSession = { customer_session: 'cs_1', customer_id: 'cus_1', account_id: 'acc', country: 'AR', callback_url: '', created_at: NOW, expires_at: NOW, checkout_id: 'chk_1' };

/** A session enrollment waiting for its SDK step, with `changes`. */
const ready = (changes: Partial<PaymentMethodState> = {}): PaymentMethodState => ({
  ...enrollInSession(session, { account_id: 'acc', payment_method_type: 'CARD', country: 'AR' }, { newId: () => 'pm_1', now: NOW, idempotencyKey: 'k' }).method,
  ...changes,
});

const read = (number: string, expired = false): ReadCard => ({
  card: { ...maskCard(number, 'key'), security_code_length: 3, holder_name: null, expiration_month: 11, expiration_year: 2030, three_d_secure: 'none' },
  forced: cardOutcome(number),
  expired,
});

const tokens = () => {
  const made: string[] = [];
  return { made, newToken: () => `vt_${made.push('t')}` };
};

describe('completeEnrollment', () => {
  it('enrolls a card with a new vaulted token, keeping what its number forces', () => {
    const { made, newToken } = tokens();
    const next = completeEnrollment(ready(), read(TEST_CARDS.approve), { newToken, now: NOW });
    expect(next).toMatchObject({ status: 'ENROLLED', vaulted_token: 'vt_1', card_outcome: { kind: 'approved' } });
    expect(made).toHaveLength(1);
  });

  it('declines an expired card or a declining test number, without a vaulted token', () => {
    const { made, newToken } = tokens();
    expect(completeEnrollment(ready(), read(TEST_CARDS.approve, true), { newToken, now: NOW })).toMatchObject({ status: 'DECLINED', sub_status: 'EXPIRED_CARD', vaulted_token: null });
    expect(completeEnrollment(ready(), read(TEST_CARDS.decline), { newToken, now: NOW })).toMatchObject({ status: 'DECLINED', sub_status: 'DECLINED_BY_BANK' });
    expect(made).toHaveLength(0);
  });

  it('takes a card for a CARD method only, and only once', () => {
    const { newToken } = tokens();
    expect(() => completeEnrollment(ready(), undefined, { newToken, now: NOW })).toThrow(expect.objectContaining({ code: 'MISSING_PARAMETERS' }));
    expect(() => completeEnrollment(ready({ type: 'SMART_PIX' }), read(TEST_CARDS.approve), { newToken, now: NOW })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETERS' }));
    expect(completeEnrollment(ready({ type: 'SMART_PIX' }), undefined, { newToken, now: NOW }).status).toBe('ENROLLED');
    expect(() => completeEnrollment(ready({ status: 'ENROLLED' }), read(TEST_CARDS.approve), { newToken, now: NOW })).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
  });
});

describe('replacedEnrollments', () => {
  it("unenrolls the customer's earlier session enrollments of the same card, and nothing else", () => {
    const card = read(TEST_CARDS.approve).card;
    const other = read(TEST_CARDS.frictionless[0]).card;
    const enrolled = ready({ id: 'new', status: 'ENROLLED', card });
    const methods = [
      ready({ id: 'same', status: 'ENROLLED', card }),
      ready({ id: 'other-card', status: 'ENROLLED', card: other }),
      ready({ id: 'other-customer', status: 'ENROLLED', card, customer_id: 'cus_2' }),
      ready({ id: 'direct', status: 'ENROLLED', card, flow: 'direct' }),
    ];
    const replaced = replacedEnrollments(methods, enrolled, NOW);
    expect(replaced.map((r) => [r.method.id, r.method.status])).toEqual([['same', 'UNENROLLED']]);
    expect(replaced[0]?.events[0]).toMatchObject({ type: 'enrollment.unenroll', data: { replaced_by: 'new' } });
    expect(replacedEnrollments(methods, { ...enrolled, status: 'DECLINED' }, NOW)).toEqual([]);
  });
});

describe('paying with an enrolled method', () => {
  it('needs an ENROLLED method', () => {
    expect(() => requirePayable(undefined, 'vt')).toThrow(expect.objectContaining({ code: 'PAYMENT_METHOD_NOT_FOUND' }));
    expect(() => requirePayable(ready(), 'vt')).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
  });

  it('takes a scripted outcome first, then what the card forces, then the description', () => {
    const method = ready({ status: 'ENROLLED', scripted_outcomes: ['INSUFFICIENT_FUNDS'], card_outcome: { kind: 'approved', threeDSecure: 'none' } });
    const first = chargeOutcome(method, 'ERROR');
    expect(first.outcome).toMatchObject({ kind: 'declined', code: 'INSUFFICIENT_FUNDS' });
    expect(first.method.scripted_outcomes).toEqual([]);
    const second = chargeOutcome(first.method, 'ERROR');
    expect(second.outcome).toEqual({ kind: 'approved', threeDSecure: 'none' });
    expect(second.method).toBe(first.method);
    expect(chargeOutcome({ ...first.method, card_outcome: null }, 'ERROR').outcome).toMatchObject({ kind: 'error' });
  });
});

// Upstream: Enroll Payment Method (direct), 201 "With Verify" (the
// VERIFY payment) and "Result" (no verify: `verify.payment` null).
describe('enrollDirect with verify', () => {
  const ids = () => {
    let n = 0;
    return () => `id_${(n += 1)}`;
  };
  const direct = (verify: { vault_on_success: boolean; currency?: string } | undefined, number: string = TEST_CARDS.approve) =>
    enrollDirect('cus_1', { account_id: 'acc', country: 'US', type: 'CARD', card_data: { number, expiration_month: 11, expiration_year: 30 }, ...(verify ? { verify } : {}) }, read(number), { newId: ids(), now: NOW, idempotencyKey: 'k', redirectUrlOf: (id) => `http://sandbox.test/enrollments/m/${id}` }).method;

  it('returns the VERIFY payment: zero amount, SUCCEEDED / VERIFIED, ordered as VERIFY_CARD_<vaulted token>', () => {
    const method = direct({ vault_on_success: true, currency: 'USD' });
    expect(method).toMatchObject({ id: 'id_1', vaulted_token: 'id_2', status: 'ENROLLED' });
    expect(method.verify.payment).toMatchObject({
      account_id: 'acc',
      description: 'VERIFY CARD',
      status: 'SUCCEEDED',
      sub_status: 'VERIFIED',
      merchant_order_id: 'VERIFY_CARD_id_2',
      amount: { currency: 'USD', value: 0, refunded: 0, captured: 0 },
      transactions: [{ type: 'VERIFY', status: 'SUCCEEDED', response_code: 'SUCCEEDED', merchant_reference: 'VERIFY_CARD_id_2' }],
    });
  });

  it("verifies in the country's currency when the request names none, and declines with the test card's code", () => {
    expect(direct({ vault_on_success: true }).verify).toMatchObject({ currency: 'USD', payment: { amount: { currency: 'USD' } } });
    const declined = direct({ vault_on_success: true }, TEST_CARDS.decline);
    expect(declined).toMatchObject({ status: 'DECLINED', sub_status: 'DECLINED_BY_BANK' });
    expect(declined.verify.payment).toMatchObject({ status: 'DECLINED', sub_status: 'DECLINED_BY_BANK', transactions: [{ status: 'DECLINED', response_code: 'DECLINED_BY_BANK' }] });
  });

  it('makes no VERIFY payment without vault_on_success', () => {
    expect(direct(undefined).verify.payment).toBeNull();
    expect(direct({ vault_on_success: false }).verify.payment).toBeNull();
  });
});

// Upstream: Enroll Payment Method (direct), 201 "ACH Enrollment":
// READY_TO_ENROLL, action REDIRECT_URL, a redirect_url.
describe('direct enrollment of a bank account', () => {
  const ach = () =>
    enrollDirect(
      'cus_1',
      {
        account_id: 'acc',
        country: 'US',
        type: 'ACH_ENROLLMENT',
        payment_method: { vault_on_success: true, detail: { bank_transfer: { beneficiary_name: 'John Doe', routing_number: '110000000' } } },
      },
      undefined,
      { newId: (() => { let n = 0; return () => `id_${(n += 1)}`; })(), now: NOW, idempotencyKey: 'k', redirectUrlOf: (id) => `http://sandbox.test/enrollments/m/${id}` },
    );

  it('waits for the payer: READY_TO_ENROLL with its redirect page, and no enroll event yet', () => {
    const { method, events } = ach();
    expect(method).toMatchObject({ status: 'READY_TO_ENROLL', redirect_url: 'http://sandbox.test/enrollments/m/id_1', verify: { vault_on_success: true, currency: null, payment: null } });
    expect(events.map((e) => e.type)).toEqual(['enrollment.create']);
  });

  it('ends ENROLLED or DECLINED by the payer, each with an enrollment.enroll event, and only once', () => {
    const { method } = ach();
    const enrolled = settleDirectEnrollment(method, 'ENROLLED', NOW);
    expect(enrolled.method).toMatchObject({ status: 'ENROLLED', sub_status: null });
    expect(enrolled.events).toMatchObject([{ type: 'enrollment.enroll', data: { status: 'ENROLLED' } }]);
    const declined = settleDirectEnrollment(method, 'DECLINED', NOW);
    expect(declined.method).toMatchObject({ status: 'DECLINED', sub_status: 'DECLINED_BY_PAYER' });
    expect(declined.events).toMatchObject([{ type: 'enrollment.enroll', data: { status: 'DECLINED' } }]);
    expect(() => settleDirectEnrollment(enrolled.method, 'DECLINED', NOW)).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
  });
});
