import { describe, expect, it } from 'vitest';
import { maskValue, toRecorded } from './recording.js';
import type { Exchange } from './recorder.js';

describe('a recording', () => {
  it('masks card numbers (first six and last four kept), security codes, tax and document ids and webhook secrets, at any depth, and keeps ids', () => {
    const body = {
      id: '5b1f0c0e-1111-4a4a-8b8b-000000000001',
      payment_method: { detail: { card: { card_data: { number: '4111111111111111', security_code: '123', holder_name: 'Ana' } } } },
      messages: ['card 4111 1111 1111 1111 was declined'],
      legal_entity: { tax_id: '12-3456789', document: { document_number: 'X1234567' } },
      hmac_client_secret: 'whsec-1',
      order: '1234567890123',
    };
    // The id and the 13 digits that fail Luhn (not a card number) are kept as they are.
    expect(maskValue(body)).toEqual({
      ...body,
      payment_method: { detail: { card: { card_data: { number: '411111******1111', security_code: '***', holder_name: 'Ana' } } } },
      messages: ['card 411111******1111 was declined'],
      legal_entity: { tax_id: '***', document: { document_number: '***' } },
      hmac_client_secret: '***',
    });
  });

  it('keeps a UUID whole where its groups of digits would pass as a card number', () => {
    // Groups 1 to 3, and groups 4 and 5, are 16 digits that pass Luhn; random ids are like this a few times a run.
    const ids = { id: '21968023-1234-4368-881f-51b1a77a5748', customer_id: '21cc28c2-cc12-444d-9344-930123453031', path: '/v1/customers/21968023-1234-4368-881f-51b1a77a5748' };
    expect(maskValue(ids)).toEqual(ids);
    expect(maskValue({ note: 'card 2196-8023-1234-4368 next to 21968023-1234-4368-881f-51b1a77a5748' })).toEqual({ note: 'card 219680******4368 next to 21968023-1234-4368-881f-51b1a77a5748' });
  });

  it('masks the API keys and keeps the path and query, not the host', () => {
    const e = {
      method: 'GET',
      url: 'http://127.0.0.1:9/v1/webhooks?account_id=a',
      requestHeaders: { 'public-api-key': 'pk_live', 'private-secret-key': 'sk_live' },
      requestBody: undefined,
      status: 200,
      contentType: 'application/json',
      responseText: '[]',
      responseBody: [],
      violations: null,
      requestId: 'r',
      responseHeaders: { 'x-request-id': 'r' },
      durationMs: 1,
    } satisfies Exchange;
    expect(toRecorded(e)).toMatchObject({ path: '/v1/webhooks?account_id=a', requestHeaders: { 'public-api-key': '***', 'private-secret-key': '***' }, concurrent: false });
  });
});
