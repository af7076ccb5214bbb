import { describe, expect, it } from 'vitest';
import { collector } from '../../test-support/gc.js';
import { maskBody, maskCardNumbers, tooLargeToKeep } from './journal-mask.js';

describe('journal body masking', () => {
  it('masks card numbers in any string, with or without separators, keeping the last four digits', () => {
    expect(maskBody({ note: 'paid with 4111 1111 1111 1111 and 5555-5555-5555-4444', plain: '4000000000000002' }, 8192)).toEqual({
      note: 'paid with ***1111 and ***4444',
      plain: '***0002',
    });
    // Shorter digit runs (amounts, dates, ids) are left alone.
    expect(maskBody({ order: 'order-0001', date: '2026-01-01', id: 'a3e8f1c6-6b2d-4e7a-9c15-8d0f2b6a7e31' }, 8192)).toEqual({
      order: 'order-0001',
      date: '2026-01-01',
      id: 'a3e8f1c6-6b2d-4e7a-9c15-8d0f2b6a7e31',
    });
  });

  it('leaves out security codes and masks keys and secrets by key at any depth, and short card numbers under `number`', () => {
    const body = {
      payment_method: { detail: { card: { card_data: { number: '45079900', security_code: '123', holder_name: 'ADA' } } } },
      items: [{ nested: { CVV: 999, cvc: '12' } }],
      private_secret_key: 'sandbox_sk_x',
      hmac_client_secret: 'whsec',
      address: { number: '1234' },
    };
    expect(maskBody(body, 8192)).toEqual({
      payment_method: { detail: { card: { card_data: { number: '***9900', holder_name: 'ADA' } } } },
      items: [{ nested: {} }],
      private_secret_key: '***',
      hmac_client_secret: '***',
      address: { number: '1234' },
    });
  });

  it('keeps a body past the size cap as a short note, without walking the rest of it', () => {
    expect(maskBody({ evidence: 'x'.repeat(5000) }, 4096)).toBe(tooLargeToKeep(4096));
    expect(maskBody(Array.from({ length: 1000 }, () => ({ a: 'bcdefgh' })), 4096)).toBe(tooLargeToKeep(4096));
    expect(maskBody({ small: 'y' }, 4096)).toEqual({ small: 'y' });
  });

  it('does not change the body it masks', () => {
    const body = { card_data: { number: '4111111111111111', security_code: '123' } };
    maskBody(body, 8192);
    expect(body.card_data).toEqual({ number: '4111111111111111', security_code: '123' });
  });
});


describe('journal body budget', () => {
  const BUDGET = 24 * 1024;
  /** Bodies built to be cheap in characters and dear in memory, each just under the budget or far over it. */
  const shapes: [string, (i: number) => unknown][] = [
    ['empty objects', () => ({ metadata: Array.from({ length: 300 }, () => ({})) })],
    ['empty arrays', () => ({ metadata: Array.from({ length: 450 }, () => []) })],
    ['nested empty objects', () => ({ metadata: Array.from({ length: 150 }, () => ({ a: {} })) })],
    ['numbers', () => ({ metadata: Array.from({ length: 900 }, (_, j) => j + 0.5) })],
    ['unique keys', (i) => ({ metadata: Object.fromEntries(Array.from({ length: 300 }, (_, j) => [`k${i}_${j}`, j])) })],
    ['short strings', (i) => ({ metadata: Array.from({ length: 350 }, (_, j) => `s${i}_${j}`) })],
    ['millions of empty objects (a hundred thousand each)', () => ({ metadata: Array.from({ length: 100_000 }, () => ({})) })],
  ];

  it.each(shapes)('keeps %s within the budget of memory it counts (measured on the heap)', (name, make) => {
    const gc = collector();
    const bodies = Array.from({ length: name.startsWith('millions') ? 10 : 200 }, (_, i) => make(i));
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = bodies.map((body) => maskBody(body, BUDGET));
    gc();
    const perBody = (process.memoryUsage().heapUsed - before) / kept.length;
    expect(perBody, `${Math.round(perBody)} bytes per body`).toBeLessThanOrEqual(BUDGET);
  });

  it('cuts a body of empty objects and arrays at the budget, which it used to keep whole', () => {
    expect(maskBody({ metadata: Array.from({ length: 5_000 }, () => ({})) }, BUDGET)).toBe(tooLargeToKeep(BUDGET));
    expect(maskBody({ metadata: Array.from({ length: 5_000 }, () => []) }, BUDGET)).toBe(tooLargeToKeep(BUDGET));
    expect(maskBody({ metadata: Object.fromEntries(Array.from({ length: 5_000 }, (_, j) => [`k${j}`, {}])) }, BUDGET)).toBe(tooLargeToKeep(BUDGET));
  });
});

describe('masking, table-driven', () => {
  // Each secret-shaped key, at the top and nested: its value never shows.
  it.each(['api_key', 'api-key', 'x-api-key', 'apiKey', 'public-api-key', 'private_secret_key', 'secret', 'hmac_client_secret', 'password', 'authorization', 'token', 'payment_token', 'payment_method_token', 'access_token'])(
    'masks the value of %s',
    (key) => {
      const masked = maskBody({ [key]: 'sk_live_value', nested: [{ [key]: 'sk_live_value' }] }, 8192);
      expect(JSON.stringify(masked)).not.toContain('sk_live_value');
    },
  );

  // Each security code key: left out whole, key and value.
  it.each(['security_code', 'security-code', 'securityCode', 'cvv', 'cvc', 'csc', 'CSC', 'card_verification'])('leaves out %s', (key) => {
    const masked = maskBody({ card: { [key]: '123' } }, 8192);
    expect(masked).toEqual({ card: {} });
  });

  it('keeps the vaulted token, the handle of an enrolled card every response shows', () => {
    expect(maskBody({ vaulted_token: 'vt_123' }, 8192)).toEqual({ vaulted_token: 'vt_123' });
  });

  // Each way of writing a card number, in free text: only the last four digits stay.
  it.each(['4111111111111111', '4111 1111 1111 1111', '4111-1111-1111-1111', '4111.1111.1111.1111', '4111_1111_1111_1111', '378282246310005', '3782 822463 10005', '6011.0009.9013.9424'])(
    'masks the card number %s',
    (number) => {
      const masked = JSON.stringify(maskBody({ note: `card ${number} by phone`, number }, 8192));
      expect(masked.replace(/\*\*\*\d{4}/g, '')).not.toMatch(/\d{5}/);
      expect(maskCardNumbers(`/v1/customers/${number}`)).toBe(`/v1/customers/***${number.replace(/\D/g, '').slice(-4)}`);
    },
  );

  // Ids stay whole, also those whose digit-only groups would read as a grouped card number, while
  // a card number beside one is still masked.
  it.each(['12345678-1234-4567-8901-2345678901ab', 'ab345678-cd12-4567-8901-234567890123', '21cc28c2-cc12-444d-9344-930000003032'])('keeps the id %s whole', (id) => {
    expect(maskCardNumbers(`/v1/payments/${id}`)).toBe(`/v1/payments/${id}`);
    expect(maskCardNumbers(`${id} paid with 4111 1111 1111 1111`)).toBe(`${id} paid with ***1111`);
  });
});
