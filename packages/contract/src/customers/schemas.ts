import { z } from 'zod';
import { IsoCountry, OperatingCountry } from '../shared/countries.js';
import { DateOnly, DateTime, Uuid, text } from '../shared/primitives.js';
import { CheckoutId } from '../checkout/schemas.js';
import {
  AddressOut,
  Document,
  DocumentOut,
  MetadataOut,
  Phone,
  PhoneOut,
  address,
  metadataList,
} from '../shared/shapes.js';

export const CUSTOMER_METADATA_LIMIT = 50;

/** Customers carry full ISO 3166-1 countries (not just the 17 operating ones). */
export const CustomerAddress = address({ zip: [4, 11], country: IsoCountry });

/** Request of §4.11. */
export const CreateCustomerBody = z.object({
  merchant_customer_id: text(3, 255),
  merchant_customer_created_at: DateTime.pipe(z.string().max(27)).optional(),
  first_name: text(3, 255).optional(),
  last_name: text(3, 255).optional(),
  gender: text(1, 2).optional(),
  date_of_birth: DateOnly.optional(),
  email: text(3, 255).email().optional(),
  nationality: IsoCountry.optional(),
  country: IsoCountry.optional(),
  document: Document.optional(),
  phone: Phone.optional(),
  billing_address: CustomerAddress.optional(),
  shipping_address: CustomerAddress.optional(),
  metadata: metadataList(CUSTOMER_METADATA_LIMIT).optional(),
});
export type CreateCustomerBody = z.infer<typeof CreateCustomerBody>;

/**
 * Customer, §2.2, which marks no field nullable. What the merchant did not send follows
 * docs/fidelity.md, "Absent values": a string is `""`, an object (document, phone, an address,
 * metadata) is left out, as upstream's "min. data" answer leaves out metadata
 * (Create Customer) and its schema types each of them a string or an object.
 */
export const Customer = z.object({
  id: Uuid,
  merchant_customer_id: z.string(),
  merchant_customer_created_at: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  gender: z.string(),
  date_of_birth: z.string(),
  email: z.string(),
  nationality: z.string(),
  country: z.string(),
  document: DocumentOut.optional(),
  phone: PhoneOut.optional(),
  billing_address: AddressOut.optional(),
  shipping_address: AddressOut.optional(),
  metadata: MetadataOut.optional(),
  created_at: DateTime,
  updated_at: DateTime,
});
export type Customer = z.infer<typeof Customer>;

/** Request of POST /v1/customers/sessions (supporting; upstream's Create Customer Session). */
export const CreateCustomerSessionBody = z.object({
  account_id: Uuid,
  country: OperatingCountry,
  customer_id: Uuid,
  callback_url: text(3, 526).optional(),
  /** The checkout the enrollment uses; without it the account's default checkout (Create Customer Session). */
  checkout_id: CheckoutId.optional(),
});
export type CreateCustomerSessionBody = z.infer<typeof CreateCustomerSessionBody>;

/** A customer session: the handle for the enrollment SDK flow (§4.1). */
export const CustomerSession = z.object({
  customer_session: Uuid,
  customer_id: Uuid,
  account_id: z.string(),
  country: z.string(),
  /** `""` when none was sent: upstream types it a string (Create Customer Session). */
  callback_url: z.string(),
  created_at: DateTime,
  expires_at: DateTime,
  /** The checkout sent, or the account's default one (upstream documents it; docs/fidelity.md). */
  checkout_id: z.string(),
});
export type CustomerSession = z.infer<typeof CustomerSession>;

export const CustomerIdParams = z.object({ customer_id: text(36, 64) });
