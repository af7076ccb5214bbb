import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_VALUE } from '@switchyard/contract';
import { acceptedUnits, totalWithParts } from '../test-support/money-arbitraries.js';
import type { PaymentState } from './payment-state.js';
import { IN_FLIGHT_TIMEOUT_MS } from './idempotency.js';
import { MAX_UNITS, fromUnits, toUnits } from './money.js';
import { abandonLostRefund, capture, completeChallenge, createPayment, finishRefund, receiveChargeback, resolveDispute, startRefund } from './payments.js';

const T0 = '2026-01-01T00:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

function captured(units: number): PaymentState {
  return {
    id: 'p1', account_id: 'a', description: 'd', country: 'AR', status: 'SUCCEEDED', sub_status: 'APPROVED', merchant_order_id: 'o',
    merchant_reference: null, created_at: T0, updated_at: T0, currency: 'ARS', amount_units: units, authorized_units: units,
    captured_units: units, refunded_units: 0, charged_back_units: 0, checkout_session: 's', subscription_id: null,
    payment_method: { type: 'CARD', vaulted_token: null, token: null, vault_on_success: false, capture: true, installments: null, soft_descriptor: null, card: null },
    customer_payer: null, additional_data: null, callback_url: null, workflow: 'DIRECT', metadata: [], split_marketplace: [],
    transactions: [{ id: 't1', type: 'PURCHASE', status: 'SUCCEEDED', amount_units: units, response_code: 'SUCCEEDED', response_message: '', reason: null, description: null, merchant_reference: null, created_at: T0, updated_at: T0 }],
    refund_in_progress: null, dispute: null,
  };
}

/** The same payment before capture: an authorization of `units`. */
function authorized(units: number): PaymentState {
  const p = captured(units);
  return { ...p, status: 'PENDING', sub_status: 'AUTHORIZED', captured_units: 0, transactions: [{ ...(p.transactions[0] as PaymentState['transactions'][number]), type: 'AUTHORIZE' }] };
}

const refund = (units?: number, charge = 't1') => ({ transactionId: charge, amountUnits: units, reason: null, description: null, merchantReference: 'r' });

describe('refund state machine', () => {
  it('adds refunds exactly in units of 0.0001 until nothing is left', () => {
    let p = captured(999_900);
    for (let i = 0; i < 3; i += 1) p = finishRefund(startRefund(p, refund(333_300), { now: T0, transactionId: `r${i}` }).payment, T0).payment;
    expect([p.refunded_units, p.status, p.sub_status]).toEqual([999_900, 'REFUNDED', 'REFUNDED']);
    expect(() => startRefund(p, refund(1), { now: T0, transactionId: 'r9' })).toThrow(/nothing is left/);
  });

  it('refuses a second refund while one is in progress', () => {
    const started = startRefund(captured(10_000), refund(1_000), { now: T0, transactionId: 'r1' }).payment;
    expect(() => startRefund(started, refund(1_000), { now: at(1000), transactionId: 'r2' })).toThrow(/already in progress/);
  });

  it('closes a refund lost with its process as ERROR, refunding nothing, and lets the next one start', () => {
    const started = startRefund(captured(10_000), refund(1_000), { now: T0, transactionId: 'r1' }).payment;
    expect(abandonLostRefund(started, at(IN_FLIGHT_TIMEOUT_MS - 1))).toBe(started);
    const later = startRefund(started, refund(2_000), { now: at(IN_FLIGHT_TIMEOUT_MS), transactionId: 'r2' }).payment;
    expect(later.transactions.find((t) => t.id === 'r1')).toMatchObject({ status: 'ERROR' });
    expect(later.refund_in_progress?.transaction_id).toBe('r2');
    expect(finishRefund(later, at(IN_FLIGHT_TIMEOUT_MS)).payment.refunded_units).toBe(2_000);
  });
});

/** Refunds each part of `charge`, as a request would send it (major units back to units), then "the rest". */
function refundAll(start: PaymentState, parts: number[], charge = 't1'): PaymentState {
  let p = start;
  [...parts.map((units) => toUnits(fromUnits(units))), undefined].forEach((units, i) => {
    p = finishRefund(startRefund(p, refund(units, charge), { now: T0, transactionId: `r${i}` }).payment, T0).payment;
  });
  return p;
}

const unitsOf = (p: PaymentState, type: string) => p.transactions.filter((t) => t.type === type).reduce((sum, t) => sum + t.amount_units, 0);

// Every amount the contract accepts (up to MAX_AMOUNT_VALUE, docs/sandbox.md "Money") must add up
// exactly: upstream requires sums of partial refunds without drift (upstream's notes, Amounts).
describe('money sums over the whole accepted range', () => {
  it('partial refunds then "the rest" add up exactly to what was captured', () => {
    fc.assert(
      fc.property(totalWithParts(), ({ total, parts }) => {
        const p = refundAll(captured(total), parts);
        expect([p.refunded_units, p.status, p.sub_status]).toEqual([total, 'REFUNDED', 'REFUNDED']);
        expect(unitsOf(p, 'REFUND')).toBe(total);
        expect(p.transactions.filter((t) => t.type === 'REFUND').reduce((sum, t) => sum + toUnits(fromUnits(t.amount_units)), 0)).toBe(total);
        expect(() => startRefund(p, refund(1), { now: T0, transactionId: 'late' })).toThrow(/nothing is left/);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a refund one unit above what is left, whatever was refunded before', () => {
    fc.assert(
      fc.property(totalWithParts(), ({ total, parts }) => {
        let p = captured(total);
        parts.forEach((units, i) => {
          p = finishRefund(startRefund(p, refund(units), { now: T0, transactionId: `r${i}` }).payment, T0).payment;
        });
        const left = total - p.refunded_units;
        expect(() => startRefund(p, refund(left + 1), { now: T0, transactionId: 'over' })).toThrow(/exceeds the refundable/);
        expect([p.status, p.sub_status]).toEqual(['SUCCEEDED', parts.length ? 'PARTIALLY_REFUNDED' : 'APPROVED']);
      }),
      { numRuns: 300 },
    );
  });

  it('captures any part of an authorization exactly, and never more', () => {
    fc.assert(
      fc.property(
        acceptedUnits().chain((auth) => fc.tuple(fc.constant(auth), fc.integer({ min: 1, max: auth }))),
        ([auth, part]) => {
          const cmd = { transactionId: 't1', currency: 'ARS', merchantReference: 'm', reason: 'PRODUCT_CONFIRMED' };
          if (auth < MAX_UNITS) expect(() => capture(authorized(auth), { ...cmd, amountUnits: auth + 1 }, { now: T0, transactionId: 'c0' })).toThrow(/exceeds the authorized/);
          const p = capture(authorized(auth), { ...cmd, amountUnits: part }, { now: T0, transactionId: 'c1' }).payment;
          expect([p.captured_units, p.sub_status]).toEqual([part, part === auth ? 'CAPTURED' : 'PARTIALLY_CAPTURED']);
          const refunded = refundAll(p, [], 'c1');
          expect([refunded.refunded_units, refunded.status]).toEqual([part, 'REFUNDED']);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('records the capture with its merchant reference and reason (upstream Capture Authorization)', () => {
    const t = capture(authorized(500_000), { transactionId: 't1', amountUnits: 500_000, currency: 'ARS', merchantReference: 'AAB01-432245', reason: 'PRODUCT_CONFIRMED' }, { now: T0, transactionId: 'c1' });
    expect(t.transaction).toMatchObject({ id: 'c1', type: 'CAPTURE', status: 'SUCCEEDED', amount_units: 500_000, merchant_reference: 'AAB01-432245', reason: 'PRODUCT_CONFIRMED' });
    expect(t.payment.sub_status).toBe('CAPTURED');
  });

  it('refunds and a lost chargeback of the rest leave exactly nothing', () => {
    fc.assert(
      fc.property(totalWithParts(), ({ total, parts }) => {
        let p = captured(total);
        parts.forEach((units, i) => {
          p = finishRefund(startRefund(p, refund(units), { now: T0, transactionId: `r${i}` }).payment, T0).payment;
        });
        const disputed = receiveChargeback(p, { reason: null }, { now: T0, transactionId: 'cb' }).payment;
        const lost = resolveDispute(disputed, 'LOST', T0).payment;
        expect([lost.refunded_units + lost.charged_back_units, lost.status, lost.sub_status]).toEqual([total, 'CHARGEBACK', 'LOST']);
      }),
      { numRuns: 300 },
    );
  });

  it('holds at the maximum itself: 0.0001, then the rest (the 1e12 case, now within range)', () => {
    const p = refundAll(captured(toUnits(MAX_AMOUNT_VALUE)), [1]);
    expect(p.transactions.filter((t) => t.type === 'REFUND').map((t) => fromUnits(t.amount_units))).toEqual([0.0001, 9_999_999_998.9999]);
    expect([fromUnits(p.refunded_units), p.status]).toEqual([MAX_AMOUNT_VALUE, 'REFUNDED']);
  });
});

describe('3-D Secure challenge', () => {
  const CARD = { iin: '49169940', lfd: '2017', number_length: 16, security_code_length: 3, brand: 'VISA' as const, fingerprint: 'f', holder_name: null, expiration_month: 1, expiration_year: 2030, three_d_secure: 'challenge' as const };
  function waiting(capture: boolean): PaymentState {
    const draft = captured(500_000);
    const d = { ...draft, status: 'CREATED', sub_status: 'CREATED', authorized_units: 0, captured_units: 0, transactions: [], payment_method: { ...draft.payment_method, capture, card: CARD } };
    return createPayment(d, { kind: 'challenge' }, { now: T0, transactionId: 't1' }).payment;
  }

  it('lets an authenticated payer through: captured, or authorized when the payment does not capture', () => {
    const purchase = completeChallenge(waiting(true), true, at(1000));
    expect([purchase.payment.status, purchase.payment.sub_status, purchase.payment.captured_units, purchase.transaction.status]).toEqual(['SUCCEEDED', 'APPROVED', 500_000, 'SUCCEEDED']);
    expect(purchase.payment.payment_method.card?.three_d_secure).toBe('challenge_passed');
    expect(purchase.events.map((e) => e.type)).toEqual(['payment.purchase']);
    const auth = completeChallenge(waiting(false), true, at(1000));
    expect([auth.payment.status, auth.payment.sub_status, auth.payment.authorized_units, auth.payment.captured_units]).toEqual(['PENDING', 'AUTHORIZED', 500_000, 0]);
    expect(auth.events.map((e) => e.type)).toEqual(['payment.authorize']);
  });

  it('declines a payer who fails it, and answers no second time', () => {
    const failed = completeChallenge(waiting(true), false, at(1000));
    expect([failed.payment.status, failed.transaction.status, failed.payment.transactions.length]).toEqual(['DECLINED', 'DECLINED', 1]);
    expect(() => completeChallenge(failed.payment, true, at(2000))).toThrow(/waits for no 3-D Secure challenge/);
    expect(() => completeChallenge(captured(1), true, at(2000))).toThrow(/waits for no 3-D Secure challenge/);
  });
});
