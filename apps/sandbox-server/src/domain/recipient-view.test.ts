import { describe, expect, it } from 'vitest';
import { presentLegalRepresentative, presentRecipient, type StoredRecipient } from './recipient-view.js';

const T0 = '2026-11-28T10:00:00.000Z';

describe('presentRecipient', () => {
  // 0.2.0 kept null for the objects not sent; they are left out now (docs/fidelity.md, "Absent values").
  it('leaves out an object a recipient stored by 0.2.0 kept as null, and keeps the others', () => {
    const stored: StoredRecipient = {
      id: 'r1', account_id: 'a', merchant_recipient_id: 'm', national_entity: 'INDIVIDUAL', entity_type: '', first_name: 'Ada', last_name: 'L', legal_name: null,
      email: '', website: '', industry: '', merchant_category_code: '', date_of_birth: '', country: 'BR',
      document: null, phone: { country_code: '55', number: '11999990000' }, address: null, legal_representatives: [], withdrawal_methods: null,
      documentation: [], onboardings: [], created_at: T0, updated_at: T0,
    };
    const answered = presentRecipient(stored);
    expect(answered).not.toHaveProperty('document');
    expect(answered).not.toHaveProperty('address');
    expect(answered).not.toHaveProperty('withdrawal_methods');
    expect(answered).toMatchObject({ phone: { number: '11999990000' }, legal_name: null });
  });
});

describe('presentLegalRepresentative', () => {
  it('answers a null or missing address_line_2 as "", and a representative without address as sent', () => {
    const address = { address_line_1: '1600 Amphitheatre Parkway', country: 'US', city: 'Mountain View' };
    expect(presentLegalRepresentative({ first_name: 'Jane', last_name: 'Smith', address: { ...address, address_line_2: null } })).toEqual({ first_name: 'Jane', last_name: 'Smith', address: { ...address, address_line_2: '' } });
    expect(presentLegalRepresentative({ first_name: 'Jane', last_name: 'Smith', address })).toMatchObject({ address: { address_line_2: '' } });
    expect(presentLegalRepresentative({ first_name: 'Jane', last_name: 'Smith' })).toEqual({ first_name: 'Jane', last_name: 'Smith' });
  });
});
