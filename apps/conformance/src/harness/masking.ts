import type { Exchange } from './recorder.js';

/** Tax ids and document numbers the suite sends on the banking routes, which must come back masked. */
const SENT_IDENTIFIERS = ['123-45-6789', '12-3456789', 'X1234567'];

/** Field names that hold a card's security code: never answered, at any depth, whatever the value. */
const SECURITY_CODE_KEY = /^(security_code|cvv2?|cvc2?|card_verification_(code|value))$/i;

/** Separators a card number may be written with: `4111 1111 1111 1111`, `4111-1111-1111-1111`. */
const SEPARATORS = /[\s.\-_/]/g;

/** Whether a string of digits passes the Luhn check, as every card number does. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** Every card number the suite sent in a request (a string of 13 to 19 digits, separators aside, that passes Luhn). */
export function sentSecrets(exchanges: readonly Exchange[]): string[] {
  const cards = new Set<string>();
  for (const e of exchanges) {
    if (!e.requestBody) continue;
    let body: unknown;
    try {
      body = JSON.parse(e.requestBody);
    } catch {
      continue;
    }
    for (const s of strings(body)) {
      const digits = s.replace(SEPARATORS, '');
      if (/^\d{13,19}$/.test(digits) && luhn(digits)) cards.add(digits);
    }
  }
  return [...cards];
}

/** What a response body leaks, at any depth: a sent card number (separators removed), a sent identifier, a security code. */
export function leaksIn(value: unknown, cards: readonly string[], path = ''): string[] {
  if (typeof value === 'string') {
    const digits = value.replace(SEPARATORS, '');
    const card = cards.find((c) => digits.includes(c));
    if (card) return [`${path || 'body'}: a full card number ending ${card.slice(-4)}`];
    const id = SENT_IDENTIFIERS.find((s) => value.includes(s));
    return id ? [`${path || 'body'}: a tax id or document number in full`] : [];
  }
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const at = Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
    if (!Array.isArray(value) && SECURITY_CODE_KEY.test(k) && v !== null && v !== undefined) return [`${at}: a security code`];
    return leaksIn(v, cards, at);
  });
}
