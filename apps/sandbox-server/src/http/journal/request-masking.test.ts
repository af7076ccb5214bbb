import { describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { createLogger } from '../../logger.js';
import { clientsFor, idemKey, keysOf, newMerchant, raw, type Clients } from '../../test-support/harness.js';
import { sandboxOn, storesUnderTest } from '../../test-support/stores.js';

/** Each way of writing the card number: every one must be masked down to its last four digits. */
const FORMATS = ['4111111111111111', '4111 1111 1111 1111', '4111.1111.1111.1111', '4111_1111_1111_1111', '4111-1111-1111-1111'];
/** Any of them, or the security code sent with it (the first eight digits alone, a card's IIN, may show). */
const CARD = /4111[ ._-]?1111[ ._-]?1111[ ._-]?1111|"123"/;
const WEBHOOK_SECRETS = { hmac_client_secret: 'whsec-never-shown-0001', api_key: 'apikey-never-shown-0001', oauth2_client_secret: 'oauth-never-shown-0001' };

async function journalText(clients: Clients): Promise<string> {
  const res = await clients.sandbox.listRequests({ query: {} });
  if (res.status !== 200) throw new Error(`journal: ${JSON.stringify(res.body)}`);
  return JSON.stringify(res.body);
}

/**
 * Masking end to end, on both stores: what a merchant sends with card numbers and secrets, as the
 * journal (`GET /sandbox/requests`) answers it and as the logs write it. The rules themselves, key
 * by key and format by format, are journal-mask.test.ts's table.
 */
describe.each(storesUnderTest('request-masking.test.ts'))('the journal and the logs on the $name store', (store) => {
  const lines: string[] = [];
  const sb = sandboxOn(store, {}, { logger: createLogger('info', { write: (line: string) => void lines.push(line) }) });

  it('mask a card number in the path in every format, and never show the keys', async () => {
    const merchant = await newMerchant(sb.url);
    for (const number of FORMATS) await raw(sb.url, `/v1/customers/${encodeURIComponent(number)}`, { headers: keysOf(merchant) });
    const journal = await journalText(clientsFor(sb.url, merchant));
    const logged = lines.join('\n');
    for (const text of [journal, logged]) {
      expect(text).toContain('/v1/customers/***1111');
      expect(text).not.toMatch(CARD);
      expect(text).not.toContain(merchant.private_secret_key);
    }
  });

  it('mask the card of a payment and the secrets of a webhook, in the journal and the logs', async () => {
    const merchant = await newMerchant(sb.url);
    const clients = clientsFor(sb.url, merchant);
    const accountId = merchant.account_ids[0] as string;
    const session = await clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
    if (session.status !== 200) throw new Error('session');
    const payment = { ...fixtures.createPayment(session.body.checkout_session, '4111111111111111'), account_id: accountId, description: 'card 4111 1111 1111 1111 by phone' };
    expect((await clients.payments.create({ body: payment, headers: { 'x-idempotency-key': idemKey() } })).status).toBe(201);
    expect((await clients.webhooks.create({ body: { ...fixtures.createWebhook(), account_id: accountId, ...WEBHOOK_SECRETS } })).status).toBe(201);

    const journal = await journalText(clients);
    expect(journal).toContain('"number":"***1111"');
    expect(journal).toContain('"hmac_client_secret":"***"');
    const logged = lines.join('\n');
    for (const text of [journal, logged]) {
      expect(text).not.toMatch(CARD);
      for (const secret of [...Object.values(WEBHOOK_SECRETS), merchant.private_secret_key]) expect(text).not.toContain(secret);
    }
  });
});

// The logs carry no headers or bodies at all; the logger's redaction is the second line of defence
// for a value logged by mistake, field by field.
describe("the logger's redaction, table-driven", () => {
  it.each([
    [{ private_secret_key: 'leaked-value' }],
    [{ public_api_key: 'leaked-value' }],
    [{ api_key: 'leaked-value' }],
    [{ token: 'leaked-value' }],
    [{ payment_token: 'leaked-value' }],
    [{ req: { headers: { 'private-secret-key': 'leaked-value', 'public-api-key': 'leaked-value', 'x-api-key': 'leaked-value', 'x-secret': 'leaked-value', authorization: 'leaked-value' } } }],
    [{ card_data: { number: 'leaked-value', security_code: 'leaked-value', csc: 'leaked-value' } }],
  ])('redacts %j', (fields) => {
    const lines: string[] = [];
    createLogger('info', { write: (line: string) => void lines.push(line) }).info(fields, 'logged by mistake');
    expect(lines.join('')).toContain('[redacted]');
    expect(lines.join('')).not.toContain('leaked-value');
  });
});
