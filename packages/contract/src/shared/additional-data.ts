import { z } from 'zod';
import { CountryCode } from './countries.js';
import { Currency } from './money.js';
import { DateOnly, DateTime, text } from './primitives.js';
import { Address, Document, Phone } from './shapes.js';
import { listOf } from '../validation.js';

/**
 * Payment additional_data (§2.6) as a request shape. Every field is optional: the groups
 * exist to improve approval rates, and the spec marks none of them required. The spec names the
 * fields without their values; where upstream's Create Payment closes a field to a list
 * (the enums below), the contract takes that list, as upstream refuses anything else
 * (`400 INVALID_REQUEST`). An empty string is in some of upstream's lists, and so in these.
 */

/** `airline.type` and a transportation's `type` (Create Payment). */
export const TRIP_TYPES = ['ONE_WAY', 'ROUNDTRIP', 'MULTIPLE_DESTINATIONS'] as const;
/** A passenger's `type`: adult, child, infant, or none. */
export const PASSENGER_TYPES = ['A', 'C', 'I', ''] as const;
export const LOYALTY_TIERS = ['1', '2', '3'] as const;
/** An order item's `category`, lower case as upstream spells it. */
export const ITEM_CATEGORIES = [
  'art', 'baby', 'coupons', 'beauty_&_personal_care', 'donations', 'computing', 'books', 'grocery_&_gourmet_food',
  'cameras', 'video_games', 'television', 'car_electronics', 'electronics', 'automotive', 'toys_&_games',
  'musical_instruments', 'handmade', 'garden_&_outdoor', 'entertainment', 'industrial_&_scientific', 'fashion',
  'games', 'pet_supplies', 'home', 'musical', 'phones', 'services', 'learnings', 'tickets', 'travels', 'virtual_goods',
  'others', '',
] as const;
export const TAX_TYPES = ['VAT', 'AIRPORT_TAX', 'CONSUMPTION_TAX', 'VAT_LAW_17934', 'VAT_LAW_19210', 'VAT_EXEMPTION', 'ISV'] as const;
export const SHIPPING_TYPES = [
  'CUSTOM', 'MILITARY', 'ELECTRONIC', 'EXPRESS', 'STANDARD', 'SCHEDULED', 'ECONOMY', 'PRIORITY', 'SAME_DAY', 'NEXT_DAY',
  'THIRD_DAY', 'STORE_PICK_UP', 'LOCKER_PICK_UP', 'OTHER',
] as const;
export const SHIPPING_CARRIERS = ['UPS', 'USPS', 'FEDEX', 'DHL', 'PUROLATOR', 'GREYHOUND', 'AR_CORREO_ARGENTINO', 'AR_OCA', 'OTHER'] as const;
export const TICKET_TYPES = ['VIRTUAL', 'PHYSICAL'] as const;
/** An event's `type`, upstream's list as published (its spelling `UNIVERCITY` included: it is the value it takes). */
export const EVENT_TYPES = ['PARTY', 'UNIVERCITY', 'FESTIVAL', 'CIRCUS', 'SPORTS', 'CINEMA', 'THEATER', 'CONCERT', 'OTHERS'] as const;
/** A seller's `industry`, upper case as upstream spells it. */
export const SELLER_INDUSTRIES = [
  'ADVERTISING', 'ART', 'AUTOMOTIVE', 'ANTIVIRUS', 'BABY', 'BEAUTY_&_PERSONAL_CARE', 'BOOKS', 'CAMERAS', 'CAR_ELECTRONICS',
  'COMPUTING', 'COUPONS', 'DONATIONS', 'DELIVERY', 'ELECTRONICS', 'ENTERTAINMENT', 'EDUCATION', 'FASHION', 'GAMES',
  'GARDEN_&_OUTDOOR', 'GROCERY_&_GOURMET_FOOD', 'HANDMADE', 'HOME', 'INDUSTRIAL_&_SCIENTIFIC', 'INVESTING_AND_FINANCIAL',
  'LEARNINGS', 'MUSICAL', 'OTHERS', 'PET_SUPPLIES', 'PHONES', 'PAYROLL', 'SERVICES', 'SAAS', 'TELEVISION', 'STREAMING',
  'TICKETS', 'TOYS_&_GAMES', 'TRAVELS', 'VIDEO_GAMES', 'VIRTUAL_GOODS', '',
] as const;
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
  type: z.enum(PASSENGER_TYPES).optional(),
  date_of_birth: DateOnly.optional(),
  nationality: CountryCode.optional(),
  document: Document.extend({ country: CountryCode.optional() }).optional(),
  country: CountryCode.optional(),
  loyalty_number: text(1, 255).optional(),
  loyalty_tier: z.enum(LOYALTY_TIERS).optional(),
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
  type: z.enum(TRIP_TYPES).optional(),
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
  type: z.enum(TAX_TYPES).optional(),
  tax_base: z.number().nonnegative().optional(),
  value: z.number().nonnegative().optional(),
  percentage: z.number().min(0).max(100).optional(),
});

/** A ticket an order sells (an event's). */
export const OrderTicket = z.object({
  id: text(1, 255).optional(),
  name: text(1, 255).optional(),
  description: text(1, 255).optional(),
  type: z.enum(TICKET_TYPES).optional(),
  /** An amount object, as upstream's Create Payment has it (its examples send value and currency). */
  amount: z.object({ value: z.number().nonnegative().optional(), currency: Currency.optional() }).optional(),
  event: z
    .object({
      id: text(1, 255).optional(),
      name: text(1, 255).optional(),
      description: text(1, 255).optional(),
      type: z.enum(EVENT_TYPES).optional(),
      /** A date (`format: date` upstream), not a date-time. */
      date: DateOnly.optional(),
      address: Address.optional(),
    })
    .optional(),
});

/** An item of an order. */
export const OrderItem = z.object({
  id: text(1, 255),
  name: text(1, 255),
  quantity: z.number().int().min(1),
  unit_amount: z.number().nonnegative(),
  category: z.enum(ITEM_CATEGORIES).optional(),
  brand: text(1, 255).optional(),
  sku_code: text(1, 255).optional(),
  manufacture_part_number: text(1, 255).optional(),
});

export const Order = z.object({
  fee_amount: z.number().nonnegative().optional(),
  shipping_amount: z.number().nonnegative().optional(),
  /**
   * A decimal in a string, as upstream types it (Create Payment; the spec names the field
   * without a type). Its "shipping, fee and tip amount" example sends a number, which its own
   * schema refuses, and so does the contract.
   */
  tip_amount: z.string().regex(/^\d+(\.\d{1,4})?$/, 'must be a decimal in a string, with at most 4 decimals').optional(),
  items: listOf(OrderItem).optional(),
  taxes: listOf(TaxItem).optional(),
  shipping: z
    .object({
      type: z.enum(SHIPPING_TYPES).optional(),
      description: text(1, 255).optional(),
      carrier: z.enum(SHIPPING_CARRIERS).optional(),
      deliver_at: DateTime.optional(),
      recipients: listOf(z.record(z.string(), z.unknown())).optional(),
    })
    .optional(),
  account_funding: z.object({ sender: AccountFundingParty.optional(), beneficiary: AccountFundingParty.optional() }).optional(),
  tickets: listOf(OrderTicket).optional(),
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
  industry: z.enum(SELLER_INDUSTRIES).optional(),
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
