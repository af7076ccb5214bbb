import type { Customer, SessionEnrolledPaymentMethod } from '@switchyard/contract';
import { ifSent } from './absent-values.js';

type StringField = 'merchant_customer_created_at' | 'first_name' | 'last_name' | 'gender' | 'date_of_birth' | 'email' | 'nationality' | 'country';
type ObjectField = 'document' | 'phone' | 'billing_address' | 'shipping_address' | 'metadata';

/**
 * A customer as the sandbox keeps it, now as in 0.2.0: `null` for every field the merchant did
 * not send. Records stored by 0.2.0 (on PostgreSQL, in a snapshot) read as they are.
 */
export type StoredCustomer = Omit<Customer, StringField | ObjectField> & { [K in StringField]: string | null } & { [K in ObjectField]?: NonNullable<Customer[K]> | null };

/**
 * The customer as every answer shows it, stored by any version. docs/fidelity.md, "Absent
 * values": §2.2 marks nothing nullable, so a string not sent is `""` and an object not sent is
 * left out.
 */
export function presentCustomer(c: StoredCustomer): Customer {
  return {
    id: c.id,
    merchant_customer_id: c.merchant_customer_id,
    merchant_customer_created_at: c.merchant_customer_created_at ?? '',
    first_name: c.first_name ?? '',
    last_name: c.last_name ?? '',
    gender: c.gender ?? '',
    date_of_birth: c.date_of_birth ?? '',
    email: c.email ?? '',
    nationality: c.nationality ?? '',
    country: c.country ?? '',
    ...ifSent('document', c.document),
    ...ifSent('phone', c.phone),
    ...ifSent('billing_address', c.billing_address),
    ...ifSent('shipping_address', c.shipping_address),
    ...ifSent('metadata', c.metadata),
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

/** The session enrollment's `customer_payer`: the session's customer as a payer, as the customer answers it. */
export function payerOf(c: StoredCustomer | undefined): SessionEnrolledPaymentMethod['customer_payer'] {
  if (!c) return undefined;
  const { first_name, last_name, email, gender, date_of_birth, document, phone, billing_address } = presentCustomer(c);
  return { first_name, last_name, email, gender, date_of_birth, ...ifSent('document', document), ...ifSent('phone', phone), ...ifSent('billing_address', billing_address) };
}
