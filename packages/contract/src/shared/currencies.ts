import { z } from 'zod';

/**
 * The currency codes the API accepts: the currencies of ISO 4217 List One ("current currency &
 * funds code list", as its maintenance agency publishes it), in force from 1 January 2026 (after
 * XCG replaced ANG on 31 March 2025, XAD was added in 2025 and Bulgaria's BGN was withdrawn for
 * the euro; CUC, SLL and ZWL had left the list before). Upstream describes every currency field
 * as "MAX 3; MIN 3; ISO 4217" and points to its country reference for "a full list of currency
 * codes" (Create Payment and the other create-* OpenAPI files), a list of the countries'
 * currencies: so a code ISO 4217 does not assign to a currency is refused, whatever its shape.
 *
 * List One also holds 23 codes that are no money a payment can be made in; they are left out
 * here and named in NON_CURRENCY_CODES, so the answer can say what the code is instead.
 * docs/contract-vs-upstream.md, "Currencies", has the decision. When ISO amends List One, this
 * list and that section change together.
 */
export const ISO_CURRENCIES = [
  'AED', 'AFN', 'ALL', 'AMD', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BHD', 'BIF', 'BMD', 'BND',
  'BOB', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF', 'CHF', 'CLP', 'CNY', 'COP', 'CRC', 'CUP', 'CVE',
  'CZK', 'DJF', 'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR', 'FJD', 'FKP', 'GBP', 'GEL', 'GHS', 'GIP', 'GMD',
  'GNF', 'GTQ', 'GYD', 'HKD', 'HNL', 'HTG', 'HUF', 'IDR', 'ILS', 'INR', 'IQD', 'IRR', 'ISK', 'JMD', 'JOD', 'JPY',
  'KES', 'KGS', 'KHR', 'KMF', 'KPW', 'KRW', 'KWD', 'KYD', 'KZT', 'LAK', 'LBP', 'LKR', 'LRD', 'LSL', 'LYD', 'MAD',
  'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP', 'MRU', 'MUR', 'MVR', 'MWK', 'MXN', 'MYR', 'MZN', 'NAD', 'NGN', 'NIO',
  'NOK', 'NPR', 'NZD', 'OMR', 'PAB', 'PEN', 'PGK', 'PHP', 'PKR', 'PLN', 'PYG', 'QAR', 'RON', 'RSD', 'RUB', 'RWF',
  'SAR', 'SBD', 'SCR', 'SDG', 'SEK', 'SGD', 'SHP', 'SLE', 'SOS', 'SRD', 'SSP', 'STN', 'SVC', 'SYP', 'SZL', 'THB',
  'TJS', 'TMT', 'TND', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'UGX', 'USD', 'UYU', 'UZS', 'VED', 'VES', 'VND',
  'VUV', 'WST', 'XAF', 'XCD', 'XCG', 'XOF', 'XPF', 'YER', 'ZAR', 'ZMW', 'ZWG',
] as const;

export const IsoCurrency = z.enum(ISO_CURRENCIES);
export type IsoCurrency = z.infer<typeof IsoCurrency>;

/**
 * The List One codes that are not a currency, with what ISO assigns them to: precious metals,
 * units of account, the testing and no-currency codes (none has a minor unit), the fund codes
 * (flagged IsFund: indexed or settlement units beside a country's currency) and UYW, Uruguay's
 * indexed wage unit, which List One does not flag but is no more a means of payment than UYI.
 * A payment, a price or a bank account in one of these makes no sense.
 */
export const NON_CURRENCY_CODES: Readonly<Record<string, string>> = {
  XAU: 'gold',
  XAG: 'silver',
  XPD: 'palladium',
  XPT: 'platinum',
  XBA: 'a bond-market unit of account (EURCO)',
  XBB: 'a bond-market unit of account (E.M.U.-6)',
  XBC: 'a bond-market unit of account (E.U.A.-9)',
  XBD: 'a bond-market unit of account (E.U.A.-17)',
  XDR: "the IMF's special drawing right",
  XSU: 'the SUCRE unit of account',
  XUA: "the African Development Bank's unit of account",
  XAD: "the Arab Monetary Fund's accounting dinar",
  XTS: 'testing',
  XXX: 'transactions where no currency is involved',
  BOV: "a fund (Bolivia's Mvdol)",
  CHE: "a fund (Switzerland's WIR euro)",
  CHW: "a fund (Switzerland's WIR franc)",
  CLF: "a fund (Chile's Unidad de Fomento)",
  COU: "a fund (Colombia's Unidad de Valor Real)",
  MXV: "a fund (Mexico's Unidad de Inversion)",
  USN: 'a fund (US dollar, next day)',
  UYI: "a fund (Uruguay's Unidad Indexada)",
  UYW: "an indexed unit (Uruguay's Unidad Previsional)",
};

const ACCEPTED: ReadonlySet<string> = new Set(ISO_CURRENCIES);

export const isIsoCurrency = (code: string): code is IsoCurrency => ACCEPTED.has(code);

/** Why `code` is refused, naming what it is when ISO 4217 has it for something else. */
export function currencyRefusal(code: string): string {
  return Object.hasOwn(NON_CURRENCY_CODES, code)
    ? `must be an ISO 4217 currency code; "${code}" is ISO 4217's code for ${NON_CURRENCY_CODES[code]}, not a currency`
    : `must be an ISO 4217 currency code; "${code}" is not one`;
}
