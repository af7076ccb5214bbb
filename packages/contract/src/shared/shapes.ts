import { z } from 'zod';
import { Base64, DateTime, refuse, text } from './primitives.js';
import { CountryCode, OperatingCountry } from './countries.js';
import { listOf } from '../validation.js';

/**
 * phone, §2.1. Upstream bounds country_code at 1 to 3 characters on most pages and 1 to 5 on
 * payment links (Create Payment Link); a leading `+` counts toward the bound (its banking
 * examples send "+1"). number is 1 to 32.
 */
export const phone = (maxCountryCode: number) =>
  z.object({
    country_code: text(1, maxCountryCode).regex(/^\+?\d+$/, 'must be a country calling code: digits, optionally after a +'),
    number: text(1, 32),
  });
export const Phone = phone(3);

/**
 * document, §2.1. Upstream gives document_type 3–6 on some pages but its own list has
 * two-letter types (CI, CC, RG), so 2–6 is accepted everywhere.
 */
export const Document = z.object({
  document_type: text(2, 6),
  document_number: text(3, 40),
});

/**
 * The document types a payer's document may carry: upstream's list for `customer_payer.document`
 * (Create Payment, Refund Payment, Cancel or Refund a Payment,
 * Create Payment Link). Create Payment also lists "", which its own "MIN 2" excludes.
 */
export const PAYER_DOCUMENT_TYPES = [
  'DNI', 'CI', 'LC', 'LE', 'CUIT', 'CUIL', 'PAS', 'CPF', 'RG', 'CNH', 'CNPJ', 'RUT', 'RUN', 'CC', 'CE', 'NIT',
  'DUI', 'PIC', 'DPI', 'IFR', 'INE', 'CP', 'RFC', 'CURP', 'CIP', 'CIC', 'CUI', 'RUC',
] as const;
export const PayerDocument = Document.extend({ document_type: z.enum(PAYER_DOCUMENT_TYPES) });

interface AddressBounds {
  /** zip_code length bounds: customers 5–10, recipients 4–11 upstream. */
  zip: readonly [number, number];
  country?: z.ZodTypeAny;
}

/**
 * address, §2.1; neighborhood optional and nullable. address_line_2 may be empty: upstream's
 * request schemas set no minimum on it and its 3DS payment example sends `""`.
 */
export function address({ zip, country = CountryCode }: AddressBounds) {
  return z.object({
    address_line_1: text(3, 255),
    address_line_2: text(0, 255).optional(),
    building_number_1: text(1, 255).optional(),
    building_number_2: text(1, 255).optional(),
    country,
    state: text(2, 255).optional(),
    city: text(2, 255),
    zip_code: text(zip[0], zip[1]).optional(),
    neighborhood: text(1, 255).nullable().optional(),
  });
}
export const Address = address({ zip: [4, 11] });

/**
 * A payer's billing or shipping address, bounded as upstream bounds `customer_payer` addresses
 * (Create Payment and the refund, cancel-or-refund and payment-link pages): zip_code 5 to 10,
 * city and building numbers at least 3, neighborhood at least 2. state keeps 2: Create Payment
 * asks for ISO 3166-2 subdivision codes and its examples send "CA". address_line_2 keeps 1
 * (upstream's 3DS example sends it empty; docs/fidelity.md).
 */
export const payerAddress = (country: z.ZodTypeAny) =>
  address({ zip: [5, 10], country }).extend({
    building_number_1: text(3, 255).optional(),
    building_number_2: text(3, 255).optional(),
    city: text(3, 255),
    neighborhood: text(2, 255).nullable().optional(),
  });

/**
 * A payer's billing or shipping address in a checkout session or a payment: one schema, so that
 * the OpenAPI document and the client's types name it once (`OperatingAddress`).
 */
export const OperatingAddress = payerAddress(OperatingCountry);

/** A response string the service may not hold: absent, or null where the resource says so. */
export const nullableString = z.string().nullable().optional();

/**
 * The address lines every answer reports, once for all resources: §2.1's address with
 * the building numbers §2.12 adds. A banking address is exactly this; customers, recipients and
 * payers add a neighborhood (`AddressOut`).
 */
export const PostalAddressOut = z.object({
  address_line_1: nullableString,
  address_line_2: nullableString,
  building_number_1: nullableString,
  building_number_2: nullableString,
  country: nullableString,
  state: nullableString,
  city: nullableString,
  zip_code: nullableString,
});

/** Response forms: the service echoes what it stored. */
export const AddressOut = PostalAddressOut.extend({ neighborhood: nullableString });
export const PhoneOut = z.object({ country_code: nullableString, number: nullableString });
export const DocumentOut = z.object({ document_type: nullableString, document_number: nullableString });

/** metadata item, §2.1. Upstream bounds: key 1–48 characters, value 1–512. */
export const MetadataItem = z.object({
  key: text(1, 48),
  value: text(1, 512),
});
export const metadataList = (max: number) => listOf(MetadataItem, max);
export const MetadataOut = z.array(z.object({ key: z.string(), value: z.string() }));

/** file object, §2.1. */
export const FileObject = z.object({
  file_name: text(3, 255),
  content_type: text(3, 100),
  content: Base64,
});
export const FileObjectOut = z.object({
  file_name: z.string(),
  content_type: z.string(),
  content: z.string().optional(),
});

/** availability of a payment link (§2.9) and of a subscription (§2.10): a window, both ends optional. */
export const Availability = z.object({ start_at: DateTime.optional(), finish_at: DateTime.optional() });

/** The `availability` window as a payment link or a subscription reports it. */
export const AvailabilityOut = z.object({ start_at: z.string().nullable(), finish_at: z.string().nullable() });

/**
 * The refinement of a body with an `availability` window: when both ends are given, the window
 * must end after it starts (reported on `availability.finish_at`).
 */
export function finishAfterStart(body: { availability?: z.infer<typeof Availability> | undefined }, ctx: z.RefinementCtx): void {
  const start = body.availability?.start_at;
  const finish = body.availability?.finish_at;
  if (start && finish && Date.parse(finish) <= Date.parse(start)) {
    refuse(ctx, ['availability', 'finish_at'], 'must be after availability.start_at');
  }
}
