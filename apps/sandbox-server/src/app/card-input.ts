import { cardOutcome, isExpired, maskCard } from '../domain/cards.js';
import type { ReadCard } from '../domain/enrollment.js';
import type { StoredCard } from '../domain/payment-state.js';
import { nowOf, type RequestContext } from './context.js';

export interface CardInput {
  number: string;
  expiration_month: number;
  expiration_year: number;
  security_code?: string;
  holder_name?: string;
}

/**
 * The one place a full card number is handled: it is masked and reduced to the outcome it forces
 * (a number failing the Luhn check is declined, `cardOutcome`). Nothing returned contains the
 * number or the security code.
 */
export function readCard(ctx: RequestContext, data: CardInput): ReadCard {
  const card: StoredCard = {
    ...maskCard(data.number, ctx.merchant.fingerprint_key),
    security_code_length: data.security_code?.length ?? null,
    holder_name: data.holder_name ?? null,
    expiration_month: data.expiration_month,
    expiration_year: data.expiration_year,
    three_d_secure: 'none',
  };
  return {
    card,
    forced: cardOutcome(data.number),
    expired: isExpired(data.expiration_month, data.expiration_year, nowOf(ctx)),
  };
}
