import type { PayerChoice } from '../../app/hosted-checkout.js';
import { luhnValid } from '../../domain/cards.js';

/** What the card form sent back that the page may show again: never the card number or the security code. */
export interface KeptFields {
  holder_name?: string;
  expiry?: string;
}

export type CheckoutForm =
  | { ok: true; attempt: string; choice: PayerChoice }
  | { ok: false; errors: string[]; kept: KeptFields };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const METHOD = /^[A-Z0-9_]{2,64}$/;

const field = (body: Record<string, unknown>, name: string): string => {
  const value = body[name];
  return typeof value === 'string' ? value.trim() : '';
};

/** `MM/YY` or `MM/YYYY` (spaces allowed around the slash) as the API's month and four-digit year. */
export function parseExpiry(text: string): { month: number; year: number } | undefined {
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(text);
  if (!match) return undefined;
  const month = Number(match[1]);
  const year = Number(match[2]);
  if (month < 1 || month > 12) return undefined;
  return { month, year: year < 100 ? 2000 + year : year };
}

/**
 * Reads a checkout form post (`attempt`, `method`, and for a card `card_number`, `holder_name`,
 * `expiry`, `security_code`). Mistakes the buyer can correct come back as messages naming the
 * field by its label. A number that fails the Luhn check is one of them, as a payment form checks
 * it before paying (the API takes such a number and declines the payment, `cardOutcome`); the
 * test outcomes are the payment's, decided later.
 */
export function readCheckoutForm(raw: unknown): CheckoutForm {
  const body = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const attemptText = field(body, 'attempt');
  const attempt = UUID.test(attemptText) ? attemptText : undefined;
  const method = field(body, 'method');
  const kept: KeptFields = { holder_name: field(body, 'holder_name').slice(0, 26), expiry: field(body, 'expiry').slice(0, 7) };
  const errors: string[] = [];
  if (!attempt) errors.push('The form is missing its payment attempt; reload the page and pay again.');
  if (!METHOD.test(method)) errors.push('Choose a payment method.');
  if (method !== 'CARD') return errors.length > 0 || !attempt ? { ok: false, errors, kept } : { ok: true, attempt, choice: { type: method } };
  const number = field(body, 'card_number').replace(/[\s-]/g, '');
  const expiry = parseExpiry(kept.expiry ?? '');
  const securityCode = field(body, 'security_code');
  const holder = kept.holder_name ?? '';
  if (!/^\d{8,19}$/.test(number)) errors.push('Card number: enter the 8 to 19 digits on the card.');
  else if (!luhnValid(number)) errors.push('Card number: a digit is mistyped (the number fails the Luhn check); enter it as on the card.');
  if (!expiry) errors.push('Expiry date: enter the month and year as MM/YY.');
  if (!/^\d{3,4}$/.test(securityCode)) errors.push('Security code: enter the 3 or 4 digits on the card.');
  if (holder !== '' && holder.length < 3) errors.push('Name on card: enter at least 3 characters, or leave it empty.');
  if (errors.length > 0 || !attempt || !expiry) return { ok: false, errors, kept };
  return {
    ok: true,
    attempt,
    choice: {
      type: 'CARD',
      card: { number, expiration_month: expiry.month, expiration_year: expiry.year, security_code: securityCode, ...(holder ? { holder_name: holder } : {}) },
    },
  };
}
