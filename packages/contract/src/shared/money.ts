import { z } from 'zod';
import { currencyRefusal, ISO_CURRENCIES, isIsoCurrency } from './currencies.js';

/**
 * Amounts are decimals in major units with at most 4 decimals (a multiple of 0.0001).
 * The check is done on the decimal text of the number, not with floating-point division,
 * so 0.3 or 99.99 pass and 0.00001 fails.
 */
export function hasAtMostFourDecimals(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const textual = value.toString();
  if (/e/i.test(textual)) {
    const [mantissa = '', exp = '0'] = textual.toLowerCase().split('e');
    const decimals = (mantissa.split('.')[1] ?? '').length - Number(exp);
    return decimals <= 4;
  }
  return (textual.split('.')[1] ?? '').length <= 4;
}

/**
 * The largest amount value the API accepts, in major units, for every currency (every currency
 * counts in steps of 0.0001 here, so one bound fits all). It is upstream's only stated range for
 * an amount: Create Payment, `amount.currency_conversion.cardholder_amount`, "Range: 0.0001 –
 * 9,999,999,999". Below it every accepted value is exact: it is at most 99,999,999,990,000 units
 * of 0.0001, about 1/90 of 2^53, so the unit count, every sum of amounts the sandbox keeps (each is
 * capped by one amount) and the JSON number sent back are all exact (docs/sandbox.md, "Money").
 */
export const MAX_AMOUNT_VALUE = 9_999_999_999;

const amountValue = (min: number) =>
  z
    .number()
    .min(min)
    .max(MAX_AMOUNT_VALUE)
    .refine(hasAtMostFourDecimals, { message: 'must be a multiple of 0.0001 (at most 4 decimals)' });

/** A positive amount value in major units: requests that move money. */
export const AmountValue = amountValue(0.0001);

/** An amount value that may be 0: a price that can be free, such as a subscription's trial. */
export const FreeableAmountValue = amountValue(0);

const CURRENCY_SHAPE = /^[A-Z]{3}$/;

/**
 * Every currency a request names (§2.1 `amount.currency` and the other currency fields): an ISO
 * 4217 currency code, as upstream describes each of them ("MAX 3; MIN 3; ISO 4217"), so one of
 * ISO_CURRENCIES (shared/currencies.ts). The shape stays a pattern and the list a refinement, so
 * the OpenAPI document says `pattern: ^[A-Z]{3}$` and this description at each of the many places
 * an amount appears instead of a 155-value enum. The list is checked only on a code of that shape,
 * so a wrong code gets one message, not two.
 */
export const Currency = z
  .string()
  .regex(CURRENCY_SHAPE, 'must be an ISO 4217 currency code (3 upper-case letters)')
  .superRefine((code, ctx) => {
    if (CURRENCY_SHAPE.test(code) && !isIsoCurrency(code)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: currencyRefusal(code) });
  })
  .describe(
    `ISO 4217 currency code, one of the ${ISO_CURRENCIES.length} of \`IsoCurrency\` (the currencies of List One; its codes for metals, units of account, funds, testing and no currency, such as XAU, XDR, CLF, XTS and XXX, are refused)`,
  );

/** amount (request), §2.1. */
export const Amount = z.object({
  currency: Currency,
  value: AmountValue,
});
export type Amount = z.infer<typeof Amount>;

/** amount (payment response), §2.1. */
export const PaymentAmount = z.object({
  currency: z.string(),
  value: z.number(),
  captured: z.number(),
  refunded: z.number(),
  currency_conversion: z.unknown().nullable(),
});
export type PaymentAmount = z.infer<typeof PaymentAmount>;

/** A response amount: currency and value only. */
export const AmountOut = z.object({ currency: z.string(), value: z.number() });
