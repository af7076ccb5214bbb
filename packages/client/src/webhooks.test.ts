import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from './errors.js';
import { parseWebhookEvent, verifyWebhookSignature } from './webhooks.js';

const secret = 'whsec-sandbox-0001';
const body = JSON.stringify({ type: 'payment', type_event: 'payment.purchase', account_id: 'acc', retry: 0, version: 2, data: { payment: { id: 'p1' } } });
const sign = (payload: string | Buffer, key = secret) => createHmac('sha256', key).update(payload).digest('base64');

describe('webhook signatures', () => {
  it('verifies Base64(HMAC-SHA256(secret, raw body))', async () => {
    expect(await verifyWebhookSignature(body, sign(body), secret)).toBe(true);
    expect(await verifyWebhookSignature(new TextEncoder().encode(body), sign(body), secret)).toBe(true);
  });

  it('rejects a wrong secret, a changed body, a missing or malformed header', async () => {
    expect(await verifyWebhookSignature(body, sign(body, 'other'), secret)).toBe(false);
    expect(await verifyWebhookSignature(`${body} `, sign(body), secret)).toBe(false);
    expect(await verifyWebhookSignature(body, undefined, secret)).toBe(false);
    expect(await verifyWebhookSignature(body, '%%%not-base64', secret)).toBe(false);
    expect(await verifyWebhookSignature(body, sign(body).slice(0, 20), secret)).toBe(false);
    expect(await verifyWebhookSignature(body, sign(body), '')).toBe(false);
  });

  it('parses a verified event', async () => {
    await expect(parseWebhookEvent(body, sign(body), secret)).resolves.toMatchObject({ type_event: 'payment.purchase', data: { payment: { id: 'p1' } } });
  });

  it('throws WebhookVerificationError for a bad signature or a payload that is not an event', async () => {
    await expect(parseWebhookEvent(body, sign(body, 'x'), secret)).rejects.toBeInstanceOf(WebhookVerificationError);
    const notEvent = JSON.stringify({ hello: 'world' });
    await expect(parseWebhookEvent(notEvent, sign(notEvent), secret)).rejects.toMatchObject({ name: 'WebhookVerificationError', messages: expect.arrayContaining([expect.stringContaining('type')]) });
    await expect(parseWebhookEvent('{nope', sign('{nope'), secret)).rejects.toThrow('not JSON');
  });
});
