/**
 * Masks what a journaled body must never show: card numbers (in any string, with or without
 * separators, and under a `number` key) and secrets (by key, at any depth); security codes are left
 * out. It errs on the side of masking: any run of 13 to 19 digits is treated as a card number.
 */

export const MASK = '***';

/**
 * Keys left out whole, wherever they appear: a security code. The API never answers a field of
 * that name at any depth, not even masked (docs/sandbox.md, "Test cards"), and the journal is an
 * answer of the API: the conformance runner's masking check holds it to the same rule.
 */
const SECURITY_CODE_KEY = /security[-_ ]?code|cvv|cvc|csc|card[-_ ]?verification/i;
/**
 * Keys whose value is masked whole, wherever they appear: API keys (`api_key`, `api-key`,
 * `x-api-key`, `public-api-key`), secrets, passwords, authorization, and tokens (`token` and any
 * key ending in `_token`: Apple Pay's `payment_token`, `payment_method_token`). Not `vaulted_token`: it is the API's handle of
 * an enrolled card, shown in every response that names the card, and useless without the keys.
 */
const SECRET_KEY = /secret|password|passwd|api[-_ ]?key|authorization|(?:^|[-_ ])token$/i;
const NOT_SECRET_KEY = /^vaulted_token$/i;
/**
 * A card number written as 13 to 19 digits, optionally grouped by one space, dash, dot or
 * underscore; or a UUID, matched first so that it stays whole: a UUID whose first three groups (or
 * last two) happen to be digits alone would otherwise read as 16 grouped digits, and the ids the
 * journal and the logs exist to show would be masked.
 */
const CARD_NUMBER_OR_UUID = /(?<uuid>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|(?<!\d)\d(?:[ ._-]?\d){12,18}(?!\d)/gi;
/** A `number` key's value that may be a short card number (the contract takes 8 to 19 digits): digits and separators only. */
const CARD_NUMBER_VALUE = /^[\d ._-]{8,}$/;

/** Keeps the last four digits, as the API shows a card (`lfd`). */
const maskDigits = (digits: string) => `${MASK}${digits.replace(/\D/g, '').slice(-4)}`;

/** A bounded walk: deeper structures than any API body are cut off rather than recursed into. */
const MAX_DEPTH = 32;

/**
 * What is left of a body's budget, in bytes of memory its masked copy takes, estimated from above
 * by what V8 was measured to spend: every object, array and value costs its own header and slot,
 * not only the characters of strings and keys. An empty `{}` costs 64 bytes although it is two
 * characters of JSON, so a body of millions of them is cut at the budget like any other.
 */
interface Budget {
  left: number;
}

const OBJECT_BYTES = 64;
const ARRAY_BYTES = 40;
/** A slot in an array or an object (8 bytes, and up to half again as the array or object grows). */
const SLOT_BYTES = 12;
const PROPERTY_BYTES = 16;
/** A number may be boxed (16 bytes); true, false and null are shared, their slot is counted. */
const NUMBER_BYTES = 16;
const STRING_HEADER_BYTES = 24;

/** A string's bytes: one per character, two when one of them is past Latin-1. */
const stringBytes = (text: string) => Math.floor(scanned(text) / 2);

function masked(value: unknown, budget: Budget, depth: number): unknown {
  if (budget.left < 0) return MASK;
  if (typeof value === 'string') {
    const scan = scanned(value);
    budget.left -= Math.floor(scan / 2);
    return budget.left < 0 ? MASK : scan % 2 === 1 ? maskedCardNumbers(value) : value;
  }
  if (value === null || typeof value !== 'object') {
    budget.left -= typeof value === 'number' ? NUMBER_BYTES : 0;
    return value;
  }
  if (depth >= MAX_DEPTH) return MASK;
  if (Array.isArray(value)) {
    budget.left -= ARRAY_BYTES;
    const items: unknown[] = [];
    for (const item of value) {
      budget.left -= SLOT_BYTES;
      if (budget.left < 0) return MASK;
      items.push(masked(item, budget, depth + 1));
    }
    return items;
  }
  budget.left -= OBJECT_BYTES;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const rule = keyRule(key);
    budget.left -= SLOT_BYTES + PROPERTY_BYTES + rule.bytes;
    if (budget.left < 0) return MASK;
    if (rule.rule === 'omit') continue;
    if (rule.rule === 'secret' && item !== null) out[key] = MASK;
    else if (key === 'number' && ((typeof item === 'number' && item >= 1e7) || (typeof item === 'string' && CARD_NUMBER_VALUE.test(item)))) out[key] = maskDigits(String(item));
    else out[key] = masked(item, budget, depth + 1);
  }
  return out;
}

/**
 * Whether `text` holds a run of at least 13 digits, each after the last or one separator after it:
 * what every match of `CARD_NUMBER_OR_UUID`'s card branch is. Most strings of a body do not (a
 * timestamp holds 17 digits, but in runs of 8 and less), so the expression runs on few of them.
 */
const mayHoldCardNumber = (text: string) => scanned(text) % 2 === 1;

/**
 * One pass over a string of a body, for what the walk needs of it: twice its bytes in memory
 * (`stringBytes`), plus one if it may hold a card number (`mayHoldCardNumber`). One loop costs
 * less than the two, and than a regular expression's call, on the short strings of a body.
 */
function scanned(text: string): number {
  let twoByte = false;
  let card = false;
  let run = 0;
  let afterSeparator = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      if (++run >= 13) card = true;
      afterSeparator = false;
    } else {
      if (code > 0xff) twoByte = true;
      if (run > 0 && !afterSeparator && (code === 32 || code === 46 || code === 95 || code === 45)) afterSeparator = true;
      else {
        run = 0;
        afterSeparator = false;
      }
    }
  }
  return 2 * (STRING_HEADER_BYTES + (twoByte ? 2 : 1) * text.length) + (card ? 1 : 0);
}

/**
 * `text` with every card number in it masked (a path, a log line): the last four digits kept. A
 * text without 13 digits in a run (`mayHoldCardNumber`) is returned as it is without running the
 * expression, which was most of the journal's cost per request.
 */
export const maskCardNumbers = (text: string): string => (!mayHoldCardNumber(text) ? text : maskedCardNumbers(text));

const maskedCardNumbers = (text: string): string =>
  text.replace(CARD_NUMBER_OR_UUID, (match: string, ...rest: unknown[]) => ((rest.at(-1) as { uuid?: string }).uuid === undefined ? maskDigits(match) : match));

/** What a key asks of its value: left out (a security code), masked whole (a secret), or walked. */
type KeyRule = 'omit' | 'secret' | 'walk';
const ruleOfKey = (key: string): KeyRule => (SECURITY_CODE_KEY.test(key) ? 'omit' : SECRET_KEY.test(key) && !NOT_SECRET_KEY.test(key) ? 'secret' : 'walk');
/** A key's rule, and the bytes the key counts for in the budget. */
interface KeyInfo {
  rule: KeyRule;
  bytes: number;
}
/**
 * The rule of each key seen, for the keys of the API's bodies that come back on every request; a
 * body's own keys are the caller's text, so at most `KEPT_KEY_RULES` are kept, the first seen.
 */
const KEPT_KEY_RULES = 2_048;
const keyRules = new Map<string, KeyInfo>();
function keyRule(key: string): KeyInfo {
  let info = keyRules.get(key);
  if (info === undefined) {
    info = { rule: ruleOfKey(key), bytes: stringBytes(key) };
    if (keyRules.size < KEPT_KEY_RULES) keyRules.set(key, info);
  }
  return info;
}

/** What a body too large to journal is kept as. */
export const tooLargeToKeep = (maxBytes: number) => `[body over ${maxBytes} bytes of memory, not kept]`;

/**
 * A masked copy of a parsed JSON body, or `tooLargeToKeep` once its copy would take more than
 * `maxBytes` of memory (`Budget`): the walk stops there, so a large body costs no more than a small one.
 */
export function maskBody(value: unknown, maxBytes: number): unknown {
  const budget = { left: maxBytes };
  const copy = masked(value, budget, 0);
  return budget.left < 0 ? tooLargeToKeep(maxBytes) : copy;
}
