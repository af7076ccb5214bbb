import { createHmac } from 'node:crypto';

export type CardBrand = 'VISA' | 'MASTERCARD' | 'AMERICAN_EXPRESS' | 'DINERS' | 'DISCOVER' | 'JCB' | 'UNKNOWN';

export function luhnValid(number: string): boolean {
  if (!/^\d{8,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function detectBrand(number: string): CardBrand {
  const p2 = Number(number.slice(0, 2));
  const p3 = Number(number.slice(0, 3));
  const p4 = Number(number.slice(0, 4));
  if (number.startsWith('4')) return 'VISA';
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return 'MASTERCARD';
  if (p2 === 34 || p2 === 37) return 'AMERICAN_EXPRESS';
  if (p2 === 36 || p2 === 38 || (p3 >= 300 && p3 <= 305)) return 'DINERS';
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649)) return 'DISCOVER';
  if (p4 >= 3528 && p4 <= 3589) return 'JCB';
  return 'UNKNOWN';
}

/** What of a card number may be kept and shown: never the number itself. */
export interface MaskedCard {
  iin: string;
  lfd: string;
  number_length: number;
  brand: CardBrand;
  fingerprint: string;
}

/**
 * Masks a card number. The fingerprint is an HMAC keyed per merchant: the same number gives the
 * same fingerprint for one merchant (duplicates are detectable) and reveals nothing elsewhere.
 */
export function maskCard(number: string, fingerprintKey: string): MaskedCard {
  return {
    iin: number.slice(0, number.length >= 16 ? 8 : 6),
    lfd: number.slice(-4),
    number_length: number.length,
    brand: detectBrand(number),
    fingerprint: createHmac('sha256', fingerprintKey).update(number).digest('base64url').slice(0, 32),
  };
}

/** The outcome a test card (or a payment description) asks for. */
export type TestOutcome =
  | { kind: 'approved'; threeDSecure: 'none' | 'frictionless' }
  | { kind: 'declined'; code: string; message: string }
  | { kind: 'error'; code: string; message: string }
  | { kind: 'challenge' };

const DECLINES: Record<string, string> = {
  INSUFFICIENT_FUNDS: 'Insufficient funds',
  DECLINED_BY_BANK: 'Declined by the issuing bank',
  DO_NOT_HONOR: 'Do not honor',
  INVALID_SECURITY_CODE: 'Invalid security code',
  INVALID_CARD_DATA: 'Invalid card data',
  REPORTED_STOLEN: 'Card reported stolen',
  EXPIRED_CARD: 'Card expired',
};

/**
 * Upstream's testing gateway: on its test card ranges (upstream's notes, "Sandbox test data"), the
 * last four digits choose the outcome.
 */
const SUFFIX_OUTCOMES: Record<string, string> = {
  '0002': 'SUCCEEDED',
  '0010': 'INSUFFICIENT_FUNDS',
  '0028': 'DECLINED_BY_BANK',
  '0036': 'DO_NOT_HONOR',
  '0044': 'INVALID_SECURITY_CODE',
  '0051': 'INVALID_CARD_DATA',
  '0069': 'REPORTED_STOLEN',
  '0077': 'ERROR',
};

/**
 * The test ranges the suffix rule applies to, each `prefix` + two digits (Visa 45079900000000xx,
 * Mastercard 52524400000000xx, Amex 3700000000000xx, Diners 36471660000000xx). Any other number
 * keeps its own meaning: upstream approves 4000000000000010 in its split example.
 */
const SUFFIX_PREFIXES = ['45079900000000', '52524400000000', '3700000000000', '36471660000000'] as const;

function inSuffixRange(number: string): boolean {
  return SUFFIX_PREFIXES.some((prefix) => number.length === prefix.length + 2 && number.startsWith(prefix));
}

export const TEST_CARDS = {
  approve: '4111111111111111',
  decline: '4000000000000002',
  frictionless: ['4556557955726624', '5333259155643223'],
  challenge: ['4916994064252017', '5306889942833340'],
} as const;


/**
 * The outcome a card number forces (known numbers, then the last four digits of a test range), if
 * any; else a number that fails the Luhn check is declined `INVALID_CARD_DATA`, as an issuer
 * declines a mistyped number. Upstream's schemas set no Luhn rule on a request, so the request is
 * taken and the payment (or the charge of the enrolled card) is what fails.
 */
export function cardOutcome(number: string): TestOutcome | undefined {
  if (number === TEST_CARDS.approve) return { kind: 'approved', threeDSecure: 'none' };
  if (number === TEST_CARDS.decline) return { kind: 'declined', code: 'DECLINED_BY_BANK', message: DECLINES.DECLINED_BY_BANK ?? '' };
  if ((TEST_CARDS.frictionless as readonly string[]).includes(number)) return { kind: 'approved', threeDSecure: 'frictionless' };
  if ((TEST_CARDS.challenge as readonly string[]).includes(number)) return { kind: 'challenge' };
  const bySuffix = inSuffixRange(number) ? SUFFIX_OUTCOMES[number.slice(-4)] : undefined;
  if (bySuffix) return outcomeForCode(bySuffix);
  return luhnValid(number) ? undefined : outcomeForCode('INVALID_CARD_DATA');
}

/** A response code written as the payment description (`INSUFFICIENT_FUNDS`, `ERROR` ...), if any. */
export function outcomeForCode(code: string): TestOutcome | undefined {
  const normalized = code.trim().toUpperCase();
  if (normalized === 'SUCCEEDED') return { kind: 'approved', threeDSecure: 'none' };
  if (normalized === 'ERROR') return { kind: 'error', code: 'ERROR', message: 'Processing error at the provider' };
  if (normalized === 'DECLINED') return { kind: 'declined', code: 'DECLINED_BY_BANK', message: DECLINES.DECLINED_BY_BANK ?? '' };
  const message = DECLINES[normalized];
  return message ? { kind: 'declined', code: normalized, message } : undefined;
}

/** Card data wins over the description; anything else approves. */
export function chooseOutcome(number: string | undefined, description: string): TestOutcome {
  return (number ? cardOutcome(number) : undefined) ?? outcomeForCode(description) ?? { kind: 'approved', threeDSecure: 'none' };
}

/** A card is expired after the last day of its expiry month. */
export function isExpired(month: number, year: number, now: Date): boolean {
  const fullYear = year < 100 ? 2000 + year : year;
  return now.getTime() >= Date.UTC(fullYear, month, 1);
}

/**
 * The issuer's one-time codes of the 3-D Secure challenge page (upstream's sandbox: 1234 = Y,
 * 1111 = N, 2222 = R, 3333 = U, 4444 = A): Y (authenticated) and A (attempted) let the payment
 * through, N, R and U decline it. Any other code is a typo the payer may correct.
 */
export function challengeAnswer(otp: string): 'authenticated' | 'failed' | 'unknown' {
  const status = ({ '1234': 'Y', '4444': 'A', '1111': 'N', '2222': 'R', '3333': 'U' } as Record<string, string>)[otp.trim()];
  if (status === undefined) return 'unknown';
  return status === 'Y' || status === 'A' ? 'authenticated' : 'failed';
}
