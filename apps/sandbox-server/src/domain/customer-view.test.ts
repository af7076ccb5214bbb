import { describe, expect, it } from 'vitest';
import { Customer, SessionEnrolledPaymentMethod } from '@switchyard/contract';
import { payerOf, presentCustomer, type StoredCustomer } from './customer-view.js';

const T0 = '2026-11-28T10:00:00.000Z';

/** A customer created with the minimum, as every version stores it: null for what was not sent. */
const stored: StoredCustomer = {
  id: '00000000-0000-4000-8000-000000000001',
  merchant_customer_id: 'c-1',
  merchant_customer_created_at: null,
  first_name: 'Ada',
  last_name: null,
  gender: null,
  date_of_birth: null,
  email: null,
  nationality: null,
  country: null,
  document: null,
  phone: null,
  billing_address: null,
  shipping_address: null,
  metadata: null,
  created_at: T0,
  updated_at: T0,
};

describe('presentCustomer', () => {
  it('answers "" for a string not sent and leaves out an object not sent (docs/fidelity.md, "Absent values")', () => {
    const answered = presentCustomer(stored);
    expect(answered).toEqual({
      id: stored.id, merchant_customer_id: 'c-1', merchant_customer_created_at: '', first_name: 'Ada', last_name: '', gender: '', date_of_birth: '',
      email: '', nationality: '', country: '', created_at: T0, updated_at: T0,
    });
    expect(Customer.safeParse(answered).success).toBe(true);
  });

  it('keeps what was sent', () => {
    const phone = { country_code: '54', number: '1155550000' };
    expect(presentCustomer({ ...stored, phone, metadata: [{ key: 'k', value: 'v' }] })).toMatchObject({ phone, metadata: [{ key: 'k', value: 'v' }] });
  });
});

describe('payerOf', () => {
  it("is the customer's payer fields as the customer answers them, or nothing without a customer", () => {
    const payer = payerOf(stored);
    expect(payer).toEqual({ first_name: 'Ada', last_name: '', email: '', gender: '', date_of_birth: '' });
    expect(SessionEnrolledPaymentMethod.shape.customer_payer.safeParse(payer).success).toBe(true);
    expect(payerOf(undefined)).toBeUndefined();
  });
});
