import { describe, expect, it } from 'vitest';
import { PAYMENT_METHOD_TYPES, PAYMENT_METHODS, alternativeMethodIssues } from '@switchyard/contract';
import { alternativeMethod, checkRefundPolicy, crc16, pixPayload, settleByPayer, startAlternativePayment, waitingExpiryMs, type AlternativeInput } from './alternative-methods.js';
import { dueOf } from './due-work.js';
import { paymentDraft } from './payment-draft.js';
import type { PaymentState } from './payment-state.js';
import { isCancellable } from './payments.js';

// Types and detail shapes from upstream's Create Payment.

const T0 = '2026-01-01T00:00:00.000Z';
const input = (type: AlternativeInput['type'], changes: Partial<AlternativeInput> = {}): AlternativeInput => ({
  type,
  now: T0,
  pageCode: 'code123',
  baseUrl: 'http://sandbox.test',
  amountUnits: 1_205_000,
  currency: PAYMENT_METHODS[type].currencies?.[0] ?? 'USD',
  ...changes,
});

function waiting(type: AlternativeInput['type'] = 'PIX', changes: Partial<AlternativeInput> = {}): PaymentState {
  const draft = paymentDraft({
    id: 'p1', now: T0, account_id: 'a', description: 'd', country: 'BR', merchant_order_id: 'o', currency: input(type).currency, amount_units: 1_205_000,
    payment_method: { type, vaulted_token: null, card: null, alternative: alternativeMethod(input(type, changes)) },
    customer_payer: null, additional_data: null,
  });
  return startAlternativePayment(draft, { kind: 'approved', threeDSecure: 'none' }, { now: T0, transactionId: 't1' }).payment;
}

describe('the catalogue', () => {
  it("covers every type of upstream's Create Payment enum", () => {
    expect(Object.keys(PAYMENT_METHODS).sort()).toEqual([...PAYMENT_METHOD_TYPES].sort());
    expect(PAYMENT_METHOD_TYPES).toHaveLength(27);
  });

  it('refuses card sources and other methods\' details on a non-card type', () => {
    expect(alternativeMethodIssues({ type: 'PIX', detail: { bank_transfer: {} } })).toEqual([]);
    expect(alternativeMethodIssues({ type: 'PIX', vaulted_token: 'x', detail: { ticket: {}, card: { card_data: {} } } }).map((i) => i.path.join('.'))).toEqual([
      'payment_method',
      'payment_method.detail.card.card_data',
      'payment_method.detail.ticket',
    ]);
  });
});

describe('PIX payload', () => {
  it('is an EMV QR with the amount, the reference and a valid CRC', () => {
    const payload = pixPayload('SBX123', 1_205_000);
    expect(payload).toContain('5406120.50');
    expect(payload).toContain('0506SBX123');
    expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)));
    // The CRC-16/CCITT-FALSE check value.
    expect(crc16('123456789')).toBe('29B1');
  });
});

describe('alternativeMethod', () => {
  it('gives each waiting flow its default expiry, reference and page', () => {
    const hours = (type: AlternativeInput['type']) => (Date.parse(alternativeMethod(input(type)).expires_at as string) - Date.parse(T0)) / 3600_000;
    expect([hours('PIX'), hours('CASH'), hours('SPEI'), hours('PSE')]).toEqual([24, 72, 72, 1]);
    const spei = alternativeMethod(input('SPEI'));
    expect(spei).toMatchObject({ flow: 'bank_transfer', redirect_url: 'http://sandbox.test/pay/code123', beneficiary_name: 'SANDBOX MERCHANT' });
    expect(spei.bank_account).toMatch(/^\d{18}$/);
  });

  it('keeps an expiry the request sets, and refuses one already past', () => {
    expect(alternativeMethod(input('OXXO', { expiresAt: '2026-01-02T00:00:00Z' })).expires_at).toBe('2026-01-02T00:00:00.000Z');
    expect(() => alternativeMethod(input('OXXO', { expiresAt: T0 }))).toThrow(/not in the future/);
  });

  it('refuses a currency the method does not settle in', () => {
    expect(() => alternativeMethod(input('OXXO', { currency: 'USD' }))).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETERS' }));
    expect(alternativeMethod(input('CASH', { currency: 'EUR' })).flow).toBe('voucher');
  });

  it('gives a wallet no page and no expiry', () => {
    expect(alternativeMethod(input('APPLE_PAY', { wallet: { paymentToken: 't', lfd: '1234' } }))).toMatchObject({ page_code: null, expires_at: null, wallet: { has_token: true, lfd: '1234' } });
  });
});

describe('the payer', () => {
  it('pays: SUCCEEDED/APPROVED, captured, the purchase SUCCEEDED, one purchase event', () => {
    const t = settleByPayer(waiting(), 'SUCCEEDED', '2026-01-01T01:00:00.000Z');
    expect(t.payment).toMatchObject({ status: 'SUCCEEDED', sub_status: 'APPROVED', captured_units: 1_205_000 });
    expect(t.transaction).toMatchObject({ id: 't1', status: 'SUCCEEDED', updated_at: '2026-01-01T01:00:00.000Z' });
    expect(t.events.map((e) => [e.type, e.data.status])).toEqual([['payment.purchase', 'SUCCEEDED']]);
  });

  it('declines or lets it expire: nothing captured', () => {
    expect(settleByPayer(waiting(), 'DECLINED', T0).payment).toMatchObject({ status: 'DECLINED', sub_status: 'DECLINED', captured_units: 0 });
    expect(settleByPayer(waiting(), 'EXPIRED', T0)).toMatchObject({ payment: { status: 'EXPIRED', sub_status: 'EXPIRED' }, transaction: { status: 'EXPIRED' } });
  });

  it('acts once', () => {
    const paid = settleByPayer(waiting(), 'SUCCEEDED', T0).payment;
    expect(() => settleByPayer(paid, 'DECLINED', T0)).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
  });
});

describe('the clock', () => {
  it('has the expiry of a waiting payment due, and nothing once it ended', () => {
    const p = waiting();
    expect(waitingExpiryMs(p)).toBe(Date.parse('2026-01-02T00:00:00.000Z'));
    expect(dueOf('payment', p)).toEqual({ lane: 'clock', at: Date.parse('2026-01-02T00:00:00.000Z') });
    expect(dueOf('payment', settleByPayer(p, 'SUCCEEDED', T0).payment)).toBeNull();
  });
});

describe('refunds and cancels', () => {
  it('refund a cash payment only to a bank account; other methods like a card', () => {
    const cash = settleByPayer(waiting('CASH'), 'SUCCEEDED', T0).payment;
    expect(() => checkRefundPolicy(cash, false)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETERS' }));
    expect(() => checkRefundPolicy(cash, true)).not.toThrow();
    expect(() => checkRefundPolicy(settleByPayer(waiting('PIX'), 'SUCCEEDED', T0).payment, false)).not.toThrow();
  });

  it('cancel a payment still waiting for its payer', () => {
    expect(isCancellable(waiting())).toBe(true);
    expect(isCancellable(settleByPayer(waiting(), 'SUCCEEDED', T0).payment)).toBe(false);
  });
});
