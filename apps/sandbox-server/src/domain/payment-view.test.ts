import { describe, expect, it } from 'vitest';
import { paymentDraft } from './payment-draft.js';
import type { TestOutcome } from './cards.js';
import type { PaymentState, StoredCard } from './payment-state.js';
import { createPayment } from './payments.js';
import { presentPayment, presentRetrievedPayment } from './payment-view.js';

const NOW = '2026-01-01T00:00:00.000Z';
const CARD: StoredCard = {
  iin: '45079900', lfd: '0002', number_length: 16, security_code_length: 3, brand: 'VISA', fingerprint: 'fp',
  holder_name: null, expiration_month: 11, expiration_year: 2030, three_d_secure: 'none',
};

function charged(card: StoredCard, outcome: TestOutcome = { kind: 'approved', threeDSecure: 'none' }) {
  const draft = paymentDraft({
    id: 'p1', now: NOW, account_id: 'acc', description: 'order 1', country: 'AR', merchant_order_id: 'o1', currency: 'ARS', amount_units: 10_000,
    customer_payer: null, additional_data: null, payment_method: { type: 'CARD', vaulted_token: null, card },
  });
  return createPayment(draft, outcome, { now: NOW, transactionId: 't1' }).payment;
}

// Upstream's Create Payment types `three_d_secure` an object in every answer; code reading
// `three_d_secure.version` threw against the sandbox only.
describe('presentPayment', () => {
  it('answers three_d_secure as an object with or without 3DS', () => {
    const plain = presentPayment(charged(CARD)).payment_method.payment_method_detail?.card?.card_data?.three_d_secure;
    expect(plain).toEqual({ version: null, electronic_commerce_indicator: null, cryptogram: null, transaction_id: null, directory_server_transaction_id: null, pares_status: null, acs_id: null });
    const challenged = presentPayment(charged({ ...CARD, three_d_secure: 'challenge' }, { kind: 'challenge' }));
    expect(challenged.payment_method.payment_method_detail?.card?.card_data?.three_d_secure).toMatchObject({ version: '2.2.0', electronic_commerce_indicator: null, pares_status: 'C' });
  });

  it('gives each outcome its ISO 8583 code, an unknown decline 05', () => {
    const iso = (code: string) => presentPayment(charged(CARD, { kind: 'declined', code, message: code })).transactions?.provider_data;
    expect(iso('EXPIRED_CARD')).toMatchObject({ iso8583_response_code: '54', iso8583_response_message: 'Expired card' });
    expect(iso('SOMETHING_ELSE')).toMatchObject({ iso8583_response_code: '05', iso8583_response_message: 'Do not honor' });
  });

  it('leaves out the history and the raw answers when asked to (the retrieve route\'s defaults)', () => {
    const p = charged(CARD);
    const full = presentPayment(p);
    expect(full.transactions_history).toMatchObject({ id: 't1' });
    expect(full.transactions?.provider_data?.raw_response).toMatchObject({ amount: { currency: 'ARS', value: 1 }, status: 'SUCCEEDED' });
    const bare = presentPayment(p, undefined, { history: false, rawResponse: false });
    expect(bare.transactions_history).toBeNull();
    expect(bare.transactions?.provider_data).not.toHaveProperty('raw_response');
  });
});

// The spec does not define the retrieve route (§4); upstream's Retrieve Payment by ID answers
// `transactions` as an array of every transaction, oldest first (its 3DS example: THREE_D_SECURE, PURCHASE).
describe('presentRetrievedPayment', () => {
  it('lists every transaction in the order they happened, the options applied to each', () => {
    const p = charged(CARD);
    const [first] = p.transactions;
    if (!first) throw new Error('charged without a transaction');
    const refunded: PaymentState = { ...p, transactions: [first, { ...first, id: 't2', type: 'REFUND', amount_units: 4_000 }] };
    const view = presentRetrievedPayment(refunded, { history: false, rawResponse: false });
    expect(view.transactions.map((t) => [t.id, t.type, t.amount])).toEqual([['t1', 'PURCHASE', 1], ['t2', 'REFUND', 0.4]]);
    expect(view.transactions.every((t) => t.provider_data && !('raw_response' in t.provider_data))).toBe(true);
    expect(view.transactions_history).toBeNull();
    expect(presentRetrievedPayment(refunded, { history: true, rawResponse: true }).transactions_history).toMatchObject({ id: 't2' });
  });
});
