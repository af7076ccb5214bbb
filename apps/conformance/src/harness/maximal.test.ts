import { describe, expect, it } from 'vitest';
import { CreateCustomerBody, CreatePaymentBody } from '@switchyard/contract';
import { fixtures as examples } from '@switchyard/contract/fixtures';
import { maximalBody } from './maximal.js';

describe('maximalBody', () => {
  it('fills every optional field of a customer with a value its schema accepts, and names what it added', () => {
    const valid = { merchant_customer_id: 'cust-1' };
    const { body, added, excluded } = maximalBody(CreateCustomerBody, valid);
    expect(CreateCustomerBody.safeParse(body).success).toBe(true);
    expect(excluded).toEqual([]);
    expect(Object.keys(body).sort()).toEqual(Object.keys(CreateCustomerBody.shape).sort());
    expect(added).toContain('metadata');
    expect(body.merchant_customer_id).toBe('cust-1');
  });

  it('leaves out the added fields a cross-field rule refuses together, with the rule as the reason, and uses the ids it is given', () => {
    const valid = examples.createPayment() as unknown as Record<string, unknown>;
    const customer = crypto.randomUUID();
    const { body, excluded } = maximalBody(CreatePaymentBody, valid, { 'customer_payer.id': customer });
    expect(CreatePaymentBody.safeParse(body).success).toBe(true);
    // A card is paid by one source: the example's card_data keeps its place, the other three are left out.
    expect(excluded.map((x) => x.field).sort()).toEqual(['payment_method.detail.card.external_providers_data', 'payment_method.token', 'payment_method.vaulted_token']);
    for (const x of excluded) expect(x.why).toContain('takes only one of token, vaulted_token, detail.card.card_data or detail.card.external_providers_data');
    expect((body.customer_payer as { id?: string }).id).toBe(customer);
  });

  it('leaves out the fields it is told to, with their reason', () => {
    const { body, excluded } = maximalBody(CreateCustomerBody, { merchant_customer_id: 'cust-1' }, {}, [{ field: 'email', why: 'a rule on the state' }]);
    expect(body.email).toBeUndefined();
    expect(excluded).toEqual([{ field: 'email', why: 'a rule on the state' }]);
  });
});
