import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from './errors.js';
import { parseWebhookEvent, verifyWebhookSignature } from './webhooks.js';

const secret = 'whsec-sandbox-0001';
const account = {
  id: 'acct_0123456789abcdefghijklmnopqrstu',
  entity_id: 'ent_1',
  onboarding_id: 'onb_1',
  account_id: '6a1e7c2b-93f4-4d8e-b1a0-5c2f9e7d3b14',
  provider: { account_id: 'prv_1' },
  account_type: 'CHECKING',
  status: 'ACTIVE',
  account_number: '000123456789',
  routing_number: '021000021',
  iban: null,
  currency: 'USD',
  balance: { available: 0, current: 0, pending: 0 },
  account_details: { account_name: 'Ada', sort_code: null, bsb: null, swift: null },
  payment_rails: { incoming: ['ACH'], outgoing: ['ACH'] },
  supports_book_transfers: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const body = JSON.stringify({ type: 'banking.account', type_event: 'banking.account.created', account_id: 'acc', retry: 0, version: 2, data: { account, idempotency_key: 'evt-1' } });
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
    const event = await parseWebhookEvent(body, sign(body), secret);
    expect(event).toMatchObject({ type_event: 'banking.account.created', data: { account: { status: 'ACTIVE' }, idempotency_key: 'evt-1' } });
    if (event.type === 'banking.account') expect(event.data.account.currency).toBe('USD');
  });

  it('throws WebhookVerificationError for a bad signature or a payload that is not an event', async () => {
    await expect(parseWebhookEvent(body, sign(body, 'x'), secret)).rejects.toBeInstanceOf(WebhookVerificationError);
    const notEvent = JSON.stringify({ hello: 'world' });
    await expect(parseWebhookEvent(notEvent, sign(notEvent), secret)).rejects.toMatchObject({ name: 'WebhookVerificationError', messages: expect.arrayContaining([expect.stringContaining('body.type')]) });
    const partial = JSON.stringify({ type: 'payment', type_event: 'payment.refund', account_id: 'a', retry: 0, version: 2, data: { payment: { id: 'p1' } } });
    await expect(parseWebhookEvent(partial, sign(partial), secret)).rejects.toMatchObject({ messages: expect.arrayContaining(['body.data.idempotency_key: is required']) });
    await expect(parseWebhookEvent('{nope', sign('{nope'), secret)).rejects.toThrow('not JSON');
  });
});
