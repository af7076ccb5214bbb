import { describeIssues, WebhookEvent as WebhookEventSchema, WEBHOOK_SIGNATURE_HEADER as CONTRACT_SIGNATURE_HEADER } from '@switchyard/contract';
import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types/webhooks.js';

/**
 * The contract's header, re-declared (not re-exported) so that this module's declarations hold
 * its literal value and never load the contract's.
 */
export const WEBHOOK_SIGNATURE_HEADER = CONTRACT_SIGNATURE_HEADER;

const encoder = new TextEncoder();

function toBytes(value: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return typeof value === 'string' ? encoder.encode(value) : new Uint8Array(value);
}

function base64ToBytes(value: string): Uint8Array | undefined {
  try {
    const binary = atob(value.trim());
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Compares in time that depends only on the length, never on where the bytes differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/**
 * Checks `x-hmac-signature`: Base64(HMAC-SHA256(secret, raw body bytes)). Pass the body exactly as
 * received (re-serialised JSON will not match). Uses Web Crypto, so it runs in Node, Bun, Deno and
 * edge runtimes.
 */
export async function verifyWebhookSignature(rawBody: string | Uint8Array, signatureHeader: string | null | undefined, secret: string): Promise<boolean> {
  if (!signatureHeader || !secret) return false;
  const given = base64ToBytes(signatureHeader);
  if (!given) return false;
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, toBytes(rawBody)));
  return constantTimeEqual(expected, given);
}

/** Verifies the signature, then parses and validates the event; throws WebhookVerificationError otherwise. */
export async function parseWebhookEvent(rawBody: string | Uint8Array, signatureHeader: string | null | undefined, secret: string): Promise<WebhookEvent> {
  if (!(await verifyWebhookSignature(rawBody, signatureHeader, secret))) {
    throw new WebhookVerificationError('webhook signature does not match the payload');
  }
  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody));
  } catch (error) {
    throw new WebhookVerificationError('webhook payload is not JSON', { cause: error });
  }
  const parsed = WebhookEventSchema.safeParse(json);
  if (!parsed.success) {
    throw new WebhookVerificationError('webhook payload is not a valid event', { messages: describeIssues(parsed.error, 'body'), raw: json });
  }
  return parsed.data;
}
