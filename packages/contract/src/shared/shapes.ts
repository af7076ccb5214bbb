import { z } from 'zod';
import { Base64, text } from './primitives.js';
import { CountryCode } from './countries.js';
import { listOf } from '../validation.js';

/** phone, §2.1 (upstream: country calling code 1–3 digits, number 1–32). */
export const Phone = z.object({
  country_code: z.string().regex(/^\d{1,3}$/, 'must be a country calling code of 1 to 3 digits'),
  number: text(1, 32),
});

/**
 * document, §2.1. Upstream gives document_type 3–6 on some pages but its own list has
 * two-letter types (CI, CC, RG), so 2–6 is accepted everywhere.
 */
export const Document = z.object({
  document_type: text(2, 6),
  document_number: text(3, 40),
});

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

const nullableString = z.string().nullable().optional();

/** Response forms: the service echoes what it stored; fields never sent come back null. */
export const AddressOut = z.object({
  address_line_1: nullableString,
  address_line_2: nullableString,
  building_number_1: nullableString,
  building_number_2: nullableString,
  country: nullableString,
  state: nullableString,
  city: nullableString,
  zip_code: nullableString,
  neighborhood: nullableString,
});
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
