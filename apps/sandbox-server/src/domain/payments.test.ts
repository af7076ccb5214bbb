import { describe, expect, it } from 'vitest';
import type { PaymentState } from './payment-state.js';
import { IN_FLIGHT_TIMEOUT_MS } from './idempotency.js';
import { abandonLostRefund, finishRefund, startRefund } from './payments.js';

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

const refund = (units?: number) => ({ transactionId: 't1', amountUnits: units, reason: null, description: null, merchantReference: 'r' });

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
