import { z } from 'zod';
import { CountryCode } from './countries.js';
import { Currency } from './money.js';
import { DateOnly, DateTime, text } from './primitives.js';
import { Address, Document, Phone } from './shapes.js';
import { listOf } from '../validation.js';

/**
 * Payment additional_data (§2.6) as a request shape. Every field is optional: the groups
 * exist to improve approval rates, and the spec marks none of them required.
 */
const Leg = z.object({
  order: z.number().int().optional(),
  route_order: z.number().int().optional(),
  passenger_id: text(1, 255).optional(),
  departure_airport: z.string().length(3),
  departure_datetime: DateTime.optional(),
  departure_airport_timezone: text(1, 6).optional(),
  arrival_airport: z.string().length(3),
  arrival_airport_timezone: text(1, 6).optional(),
  arrival_datetime: DateTime.optional(),
  carrier_code: text(2, 2).optional(),
  flight_number: text(1, 5).optional(),
  fare_basis_code: text(1, 15).optional(),
  fare_class_code: text(1, 3).optional(),
  base_fare: z.number().nonnegative().optional(),
  base_fare_currency: Currency.optional(),
  stopover_code: text(1, 1).optional(),
  departure_airport_country: CountryCode.optional(),
  departure_airport_city: text(1, 255).optional(),
  arrival_airport_country: CountryCode.optional(),
  arrival_airport_city: text(1, 255).optional(),
  expedited_boarding: z.boolean().optional(),
  extra_baggage: z.boolean().optional(),
  purchased_meals: z.boolean().optional(),
  selected_seat: z.boolean().optional(),
});

const Passenger = z.object({
  id: text(1, 255).optional(),
  first_name: text(1, 255).optional(),
  last_name: text(1, 255).optional(),
  middle_name: text(1, 255).optional(),
  type: text(1, 1).optional(),
  date_of_birth: DateOnly.optional(),
  nationality: CountryCode.optional(),
  document: Document.extend({ country: CountryCode.optional() }).optional(),
  country: CountryCode.optional(),
  loyalty_number: text(1, 255).optional(),
  loyalty_tier: text(1, 255).optional(),
  email: text(3, 255).optional(),
  phone: Phone.optional(),
  address: Address.optional(),
  evidence_document_source: text(1, 255).optional(),
});

/** A ticket of an airline purchase, alone (`ticket`) or listed (`tickets`). */
export const AirlineTicket = z.object({
  ticket_number: text(1, 14).optional(),
  passenger_id: text(1, 255).optional(),
  e_ticket: z.boolean().optional(),
  restricted: z.boolean().optional(),
  total_fare_amount: z.number().nonnegative().optional(),
  total_tax_amount: z.number().nonnegative().optional(),
  total_fee_amount: z.number().nonnegative().optional(),
  issue: z
    .object({
      carrier_prefix_code: text(3, 3).optional(),
      travel_agent_code: text(8, 9).optional(),
      travel_agent_name: text(1, 32).optional(),
      date: DateTime.optional(),
      address: text(3, 255).optional(),
      city: text(3, 255).optional(),
      country: CountryCode.optional(),
      zip_code: text(1, 11).optional(),
      booking_system_code: text(1, 255).optional(),
      booking_system_name: text(1, 255).optional(),
    })
    .optional(),
});

export const Airline = z.object({
  pnr: text(1, 10).optional(),
  type: text(1, 255).optional(),
  legs: listOf(Leg).optional(),
  passengers: listOf(Passenger).optional(),
  ticket: AirlineTicket.optional(),
  tickets: listOf(AirlineTicket).optional(),
});

/** The sender or the beneficiary of an account funding. */
export const AccountFundingParty = z.object({
  national_entity: z.enum(['INDIVIDUAL', 'ENTITY']).optional(),
  first_name: text(1, 255).optional(),
  last_name: text(1, 255).optional(),
  legal_name: text(1, 255).optional(),
  email: text(3, 255).optional(),
  country: CountryCode.optional(),
  date_of_birth: DateOnly.optional(),
  document: Document.optional(),
  phone: Phone.optional(),
  address: Address.optional(),
});

/** A tax line: its type, base, amount and rate. */
export const TaxItem = z.object({
  type: text(1, 255).optional(),
  tax_base: z.number().nonnegative().optional(),
  value: z.number().nonnegative().optional(),
  percentage: z.number().min(0).max(100).optional(),
});

export const Order = z.object({
  fee_amount: z.number().nonnegative().optional(),
  shipping_amount: z.number().nonnegative().optional(),
  /** Upstream types it a string (Create Payment) while its examples send a number: both are taken. */
  tip_amount: z.number().nonnegative().or(z.string().regex(/^\d+(\.\d{1,4})?$/, 'must be a decimal with at most 4 decimals')).optional(),
  items: listOf(
    z.object({
      id: text(1, 255),
      name: text(1, 255),
      quantity: z.number().int().min(1),
      unit_amount: z.number().nonnegative(),
      category: text(1, 255).optional(),
      brand: text(1, 255).optional(),
      sku_code: text(1, 255).optional(),
      manufacture_part_number: text(1, 255).optional(),
    }),
  ).optional(),
  taxes: listOf(TaxItem).optional(),
  shipping: z
    .object({
      type: text(1, 255).optional(),
      description: text(1, 255).optional(),
      carrier: text(1, 255).optional(),
      deliver_at: DateTime.optional(),
      recipients: listOf(z.record(z.string(), z.unknown())).optional(),
    })
    .optional(),
  account_funding: z.object({ sender: AccountFundingParty.optional(), beneficiary: AccountFundingParty.optional() }).optional(),
  tickets: listOf(
    z.object({
      id: text(1, 255).optional(),
      name: text(1, 255).optional(),
      description: text(1, 255).optional(),
      type: text(1, 255).optional(),
      /** An amount object, as upstream's Create Payment has it (its examples send value and currency). */
      amount: z.object({ value: z.number().nonnegative().optional(), currency: Currency.optional() }).optional(),
      event: z
        .object({
          id: text(1, 255).optional(),
          name: text(1, 255).optional(),
          description: text(1, 255).optional(),
          type: text(1, 255).optional(),
          /** A date (`format: date` upstream), not a date-time. */
          date: DateOnly.optional(),
          address: Address.optional(),
        })
        .optional(),
    }),
  ).optional(),
  fulfillment: z.record(z.string(), z.unknown()).optional(),
  discounts: listOf(z.object({ id: text(1, 255).optional(), name: text(1, 255).optional(), unit_amount: z.number().nonnegative().optional() })).optional(),
  sales_channel: text(1, 255).optional(),
});

export const SellerDetails = z.object({
  name: text(1, 255).optional(),
  website: text(1, 255).optional(),
  email: text(1, 255).optional(),
  address: Address.optional(),
  reference: text(1, 255).optional(),
  country: CountryCode.optional(),
  phone: Phone.optional(),
  document: Document.optional(),
  industry: text(1, 235).optional(),
  merchant_category_code: text(1, 235).optional(),
});

export const AdditionalData = z.object({
  airline: Airline.nullable().optional(),
  transportations: listOf(z.record(z.string(), z.unknown())).nullable().optional(),
  order: Order.nullable().optional(),
  seller_details: SellerDetails.nullable().optional(),
});
export type AdditionalData = z.infer<typeof AdditionalData>;

/** The response keeps what was sent; unknown keys are tolerated for forward compatibility. */
export const AdditionalDataOut = z
  .object({
    airline: z.record(z.string(), z.unknown()).nullable().optional(),
    transportations: z.array(z.unknown()).nullable().optional(),
    order: z.record(z.string(), z.unknown()).nullable().optional(),
    seller_details: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .passthrough();
