import { createHmac } from 'node:crypto';

/** `x-hmac-signature`: Base64(HMAC-SHA256(secret, raw body bytes)), as upstream signs. */
export function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}
