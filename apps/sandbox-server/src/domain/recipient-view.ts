import type { CreateRecipientBody, Recipient } from '@switchyard/contract';
import { ifSent } from './absent-values.js';

type ObjectField = 'document' | 'phone' | 'address' | 'withdrawal_methods';

/**
 * A recipient as the sandbox keeps it: as answered, but 0.2.0 kept `null` for the objects not
 * sent, and records it stored (on PostgreSQL, in a snapshot) read as they are.
 */
export type StoredRecipient = Omit<Recipient, ObjectField> & { [K in ObjectField]?: NonNullable<Recipient[K]> | null };

/** The recipient as answered, stored by any version: an object not sent is left out (docs/fidelity.md, "Absent values"). */
export function presentRecipient(r: StoredRecipient): Recipient {
  const { document, phone, address, withdrawal_methods, ...rest } = r;
  return { ...rest, ...ifSent('document', document), ...ifSent('phone', phone), ...ifSent('address', address), ...ifSent('withdrawal_methods', withdrawal_methods) };
}

type LegalRepresentative = NonNullable<CreateRecipientBody['legal_representatives']>[number];

/**
 * A legal representative as answered: its address's `address_line_2`, `null` (upstream's example
 * sends one) or not sent, is `""`, the string §2.1 types it.
 */
export function presentLegalRepresentative(l: LegalRepresentative): Recipient['legal_representatives'][number] {
  const { address, ...rest } = l;
  return address ? { ...rest, address: { ...address, address_line_2: address.address_line_2 ?? '' } } : rest;
}
