import { describe, expect, it } from 'vitest';
import { paymentDraft } from './payment-draft.js';

const NOW = '2026-01-01T00:00:00.000Z';
const given = { id: 'p1', now: NOW, account_id: 'acc', description: 'order 1', country: 'AR', merchant_order_id: 'o1', currency: 'ARS', amount_units: 10_000, customer_payer: null, additional_data: null };

describe('paymentDraft', () => {
  it('starts with nothing authorized, captured or refunded, and gives what is left out the value of a payment without it', () => {
    const draft = paymentDraft({ ...given, payment_method: { type: 'CARD', vaulted_token: null, card: null } });
    expect(draft).toMatchObject({ status: 'CREATED', sub_status: 'CREATED', created_at: NOW, updated_at: NOW, authorized_units: 0, captured_units: 0, refunded_units: 0, charged_back_units: 0 });
    expect(draft).toMatchObject({ merchant_reference: null, checkout_session: null, subscription_id: null, callback_url: null, workflow: 'DIRECT', metadata: [], split_marketplace: [] });
    expect(draft.payment_method).toEqual({ type: 'CARD', vaulted_token: null, token: null, vault_on_success: false, capture: true, installments: null, soft_descriptor: null, card: null, alternative: null });
    expect(draft).toMatchObject({ transactions: [], refund_in_progress: null, dispute: null });
  });

  it('keeps what the payment says', () => {
    const draft = paymentDraft({ ...given, subscription_id: 's1', metadata: [{ key: 'k', value: 'v' }], payment_method: { type: 'CARD', vaulted_token: 'vt', card: null, capture: false, installments: 3 } });
    expect(draft).toMatchObject({ subscription_id: 's1', metadata: [{ key: 'k', value: 'v' }], payment_method: { vaulted_token: 'vt', capture: false, installments: 3 } });
  });
});
