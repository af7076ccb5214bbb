import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { luhn } from './masking.js';
import { maskedHeaders, type Exchange } from './recorder.js';

/**
 * A run's exchanges with a service, saved so that `diff` can compare another service against them
 * later, without access to the first: the CI of a team that has no staging credentials there.
 * Secrets are masked before anything is written (API keys, card numbers, security codes, tax and
 * document ids, webhook secrets); ids, statuses, shapes and timestamps are kept.
 */
export const RecordedExchange = z.object({
  method: z.string(),
  /** The path and query, without the host: a recording is replayed against another base URL. */
  path: z.string(),
  requestHeaders: z.record(z.string()),
  requestBody: z.unknown(),
  status: z.number().int(),
  responseHeaders: z.record(z.string()),
  responseBody: z.unknown(),
  /** Sent side by side with others on purpose (in-flight duplicates): their outcomes race, so diff leaves them out. */
  concurrent: z.boolean(),
});
export type RecordedExchange = z.infer<typeof RecordedExchange>;

export const Recording = z.object({
  version: z.literal(1),
  baseUrl: z.string(),
  profile: z.string(),
  seed: z.number(),
  recordedAt: z.string(),
  exchanges: z.array(RecordedExchange),
});
export type Recording = z.infer<typeof Recording>;

const MASK = '***';
/** Field names whose values are secrets or personal ids, at any depth: masked whatever their value. */
const SECRET_FIELD = /^(security_code|cvv2?|cvc2?|card_verification_(code|value)|tax_id|document_number|national_id|api_key|secret|hmac_client_secret|oauth2_client_secret|private_secret_key|public_api_key)$/i;
/**
 * A UUID, kept whole, or else a card number: 13 to 19 digits that pass Luhn (separators aside).
 * A UUID's groups can be all digits and read as one card number (`21968023-1234-4368-…`): about one
 * random id in 8,000, so a few in every run. Masked, that id would no longer match across runs.
 */
const UUID_OR_CARD = /[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|\b(\d(?:[ -]?\d){12,18})\b/gi;

/** A card number kept to its first six and last four digits, as a masked card is shown. */
const maskCard = (digits: string) => `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;

function maskString(s: string): string {
  return s.replace(UUID_OR_CARD, (match, card: string | undefined) => {
    const digits = card?.replace(/[ -]/g, '');
    return digits && luhn(digits) ? maskCard(digits) : match;
  });
}

/** A value with its secrets masked, at any depth; everything else (ids included) kept. */
export function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return maskString(value);
  if (Array.isArray(value)) return value.map(maskValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELD.test(k) && v !== null && v !== undefined && v !== '***' ? MASK : maskValue(v)]));
  }
  return value;
}

const parseBody = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** One exchange as it is recorded: masked, the host left out. */
export function toRecorded(e: Exchange): RecordedExchange {
  const url = new URL(e.url);
  return {
    method: e.method,
    path: `${url.pathname}${url.search}`,
    requestHeaders: maskedHeaders(e.requestHeaders),
    requestBody: maskValue(parseBody(e.requestBody)),
    status: e.status,
    responseHeaders: e.responseHeaders,
    responseBody: maskValue(e.responseBody),
    concurrent: e.concurrent === true,
  };
}

export function writeRecording(file: string, meta: Omit<Recording, 'version' | 'recordedAt' | 'exchanges'>, exchanges: readonly Exchange[]): void {
  const recording: Recording = { version: 1, ...meta, recordedAt: new Date().toISOString(), exchanges: exchanges.map(toRecorded) };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(recording)}\n`);
}

/** Reads a recording; a file that is not one throws, naming what is wrong. */
export function readRecording(file: string): Recording {
  const parsed = Recording.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a recording: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'the file'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
