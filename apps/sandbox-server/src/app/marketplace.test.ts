import { beforeAll, describe, expect, it } from 'vitest';
import type { CreateRecipientBody } from '@switchyard/contract';
import { fixtures } from '@switchyard/contract/fixtures';
import { clientsFor, idemKey, newMerchant, sandboxWithMerchant, type Clients } from '../test-support/harness.js';
import { sandboxPerStore } from '../test-support/stores.js';

const w = sandboxWithMerchant();

const key = () => ({ 'x-idempotency-key': idemKey() });

async function newRecipient(clients: Clients, accountId: string, change: Partial<CreateRecipientBody> = {}): Promise<string> {
  const res = await clients.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: accountId, ...change } });
  if (res.status !== 201) throw new Error(`recipient: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** A recipient onboarded with the sandbox's provider (the fixture) whose balance holds `funds` BRL. */
async function fundedRecipient(clients: Clients, accountId: string, funds = 1000): Promise<string> {
  const id = await newRecipient(clients, accountId);
  const res = await clients.sandbox.fundRecipientBalance({ params: { recipient_id: id }, body: { amount: { currency: 'BRL', value: funds } } });
  if (res.status !== 200) throw new Error(`fund: ${JSON.stringify(res.body)}`);
  return id;
}

const recipientId = () => fundedRecipient(w.clients, w.accountId);

async function transfer(value = 100, description?: string) {
  const res = await w.clients.marketplace.createTransfer({ body: { ...fixtures.createTransfer(await recipientId()), account_id: w.accountId, amount: { currency: 'BRL', value }, ...(description ? { description } : {}) }, headers: key() });
  if (res.status !== 201) throw new Error(`transfer: ${JSON.stringify(res.body)}`);
  return res.body;
}

const reverse = (id: string, amount?: number, currency = 'BRL') =>
  w.clients.marketplace.reverseTransfer({ params: { transfer_id: id }, body: { ...fixtures.reverseTransfer(), account_id: w.accountId, ...(amount === undefined ? {} : { amount: { currency, value: amount } }) }, headers: key() });

describe('recipients (§4.7)', () => {
  // Upstream types these strings and objects (Create Recipient); a string
  // not sent is "", `legal_name` stays null (§2.11: "nullable string"), and the objects not sent
  // (`split_configuration`, which upstream's own answers leave out, and an onboarding's
  // `terms_of_service` and `withdrawal_methods`) are left out.
  it('answers what an individual did not send as empty strings, and leaves out the objects it did not send', async () => {
    const { email: _e, date_of_birth: _d, ...minimal } = fixtures.createRecipient();
    const res = await w.clients.marketplace.createRecipient({
      body: { ...minimal, account_id: w.accountId, onboardings: [{ type: 'ONBOARD_ONTO_THE_PROVIDER', workflow: 'DIRECT', provider: { id: 'SANDBOX', connection_id: 'conn-1' } }] },
    });
    expect(res).toMatchObject({
      status: 201,
      body: { legal_name: null, entity_type: '', email: '', website: '', industry: '', merchant_category_code: '', date_of_birth: '', onboardings: [{ description: '', callback_url: '' }] },
    });
    if (res.status !== 201) return;
    expect(res.body).not.toHaveProperty('split_configuration');
    expect(res.body.onboardings[0]).not.toHaveProperty('terms_of_service');
    expect(res.body.onboardings[0]).not.toHaveProperty('withdrawal_methods');
  });

  it('leaves out the document, phone, address and withdrawal_methods not sent', async () => {
    const { document: _d, phone: _p, address: _a, withdrawal_methods: _w, ...minimal } = fixtures.createRecipient();
    const res = await w.clients.marketplace.createRecipient({ body: { ...minimal, account_id: w.accountId } });
    if (res.status !== 201) throw new Error(`recipient: ${JSON.stringify(res.body)}`);
    for (const key of ['document', 'phone', 'address', 'withdrawal_methods']) expect(res.body).not.toHaveProperty(key);
  });

  // Upstream's "Create Recipient - US" sends a legal representative's address_line_2 null; its
  // schema declares no address there. §2.1 types the line a string: it is answered "".
  it("takes a null address_line_2 in a legal representative's address and answers it \"\"", async () => {
    const address = { address_line_1: '1600 Amphitheatre Parkway', address_line_2: null, country: 'US', state: 'CA', city: 'Mountain View', zip_code: '94043' };
    const owner = { first_name: 'Jane', last_name: 'Smith', ultimate_beneficial_owner: true, address };
    const res = await w.clients.marketplace.createRecipient({ body: { ...fixtures.createEntityRecipient(), account_id: w.accountId, legal_representatives: [owner] } });
    expect(res).toMatchObject({ status: 201, body: { legal_representatives: [{ address: { address_line_1: '1600 Amphitheatre Parkway', address_line_2: '' } }] } });
  });

  it('creates an individual (201) with documentation kept and no content echoed', async () => {
    const body = {
      ...fixtures.createRecipient(),
      account_id: w.accountId,
      documentation: [{ file_name: 'id.pdf', content_type: 'application/pdf' as const, content_category: 'IDENTIFICATION_DOCUMENT' as const, content: 'JVBERi0xLjQK' }],
    };
    const res = await w.clients.marketplace.createRecipient({ body });
    expect(res).toMatchObject({ status: 201, body: { national_entity: 'INDIVIDUAL', legal_name: null, documentation: [{ file_name: 'id.pdf', content_category: 'IDENTIFICATION_DOCUMENT' }], withdrawal_methods: { bank: { code: '001' } } } });
    if (res.status === 201) expect(res.body.documentation[0]?.content).toBeUndefined();
  });

  it('creates an entity with owners, and turns request onboardings into onboarding items', async () => {
    const res = await w.clients.marketplace.createRecipient({
      body: {
        ...fixtures.createEntityRecipient(),
        account_id: w.accountId,
        onboardings: [
          { type: 'PREVIOUSLY_ONBOARDED', workflow: 'DIRECT', provider: { id: 'SANDBOX', connection_id: 'conn-1', recipient_id: 'prov-rcp-1' } },
          { type: 'ONBOARD_ONTO_THE_PROVIDER', workflow: 'HOSTED_BY_PROVIDER', provider: { id: 'SANDBOX', connection_id: 'conn-1' } },
        ],
      },
    });
    expect(res).toMatchObject({
      status: 201,
      body: {
        legal_name: 'Hopper Compilers SA',
        legal_representatives: [{ first_name: 'Grace' }],
        onboardings: [
          { type: 'PREVIOUSLY_ONBOARDED', status: 'SUCCEEDED', provider: { recipient_id: 'prov-rcp-1' } },
          { type: 'TWO_STEP_ONBOARDING', status: 'PENDING', workflow: 'HOSTED_BY_PROVIDER' },
        ],
      },
    });
  });

  it('enforces the ENTITY rules over HTTP', async () => {
    const noOwners = await w.clients.marketplace.createRecipient({ body: { ...fixtures.createEntityRecipient(), account_id: w.accountId, legal_representatives: [] } });
    expect(noOwners).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', messages: [expect.stringContaining('body.legal_representatives')] } });
    const legalName = await w.clients.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: w.accountId, legal_name: 'Nope SA' } });
    expect(legalName).toMatchObject({ status: 400, body: { messages: [expect.stringContaining('body.legal_name')] } });
  });
});

describe('transfers and reversals (§4.5)', () => {
  it('creates a SUCCEEDED transfer (201) to a funded, onboarded recipient and 404s an unknown recipient', async () => {
    expect(await transfer()).toMatchObject({ status: 'SUCCEEDED', amount: { value: 100, currency: 'BRL' }, transactions: [{ type: 'SPLIT_TRANSFER', status: 'SUCCEEDED' }] });
    const res = await w.clients.marketplace.createTransfer({ body: { ...fixtures.createTransfer(), account_id: w.accountId }, headers: key() });
    expect(res).toMatchObject({ status: 404, body: { code: 'RECIPIENT_NOT_FOUND' } });
  });

  it('reverses partially, then the rest, then refuses', async () => {
    const t = await transfer(100);
    expect(await reverse(t.id, 30.1)).toMatchObject({ status: 200, body: { status: 'SUCCEEDED', transactions: [{}, { type: 'SPLIT_TRANSFER_REVERSE', amount: { value: 30.1 } }] } });
    expect(await reverse(t.id, 69.9001)).toMatchObject({ status: 400, body: { code: 'REVERSAL_AMOUNT_EXCEEDS' } });
    expect(await reverse(t.id)).toMatchObject({ status: 200, body: { status: 'REVERSED', transactions: [{}, {}, { amount: { value: 69.9 } }] } });
    expect(await reverse(t.id)).toMatchObject({ status: 400, body: { code: 'TRANSFER_ALREADY_REVERSED' } });
  });

  it('refuses a declined transfer, another currency, and an unknown id', async () => {
    const declined = await transfer(10, 'DECLINED');
    expect(declined.status).toBe('DECLINED');
    expect(await reverse(declined.id)).toMatchObject({ status: 400, body: { code: 'TRANSFER_NOT_REVERSIBLE' } });
    const t = await transfer(10);
    expect(await reverse(t.id, 1, 'USD')).toMatchObject({ status: 400, body: { code: 'INVALID_CURRENCY' } });
    // "The specified currency is invalid or does not match the original transfer" (Reverse Standalone Transfer): both are INVALID_CURRENCY.
    expect(await reverse(t.id, 1, 'XYZ')).toMatchObject({ status: 400, body: { code: 'INVALID_CURRENCY', messages: [expect.stringContaining('body.amount.currency')] } });
    expect(await reverse('tr_unknown')).toMatchObject({ status: 404, body: { code: 'TRANSFER_NOT_FOUND' } });
  });

  it('never reverses more than the amount under 20 concurrent partial reversals', async () => {
    const t = await transfer(100);
    const results = await Promise.all(Array.from({ length: 20 }, () => reverse(t.id, 12.5)));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(8);
    expect(results.filter((r) => r.status === 400).every((r) => ['REVERSAL_AMOUNT_EXCEEDS', 'TRANSFER_ALREADY_REVERSED'].includes((r.body as { code: string }).code))).toBe(true);
  });
});

const balanceOf = async (clients: Clients, recipient: string) => {
  const res = await clients.sandbox.getRecipientBalance({ params: { recipient_id: recipient } });
  if (res.status !== 200) throw new Error(`balance: ${JSON.stringify(res.body)}`);
  return res.body.balances;
};

/**
 * Upstream refuses a standalone transfer with a 400 PROVIDER_NOT_FOUND,
 * ONBOARDING_NOT_VALID, CURRENCY_NOT_SUPPORTED or INSUFFICIENT_BALANCE
 * (Create Standalone Transfer); the balance is funded by the control route and by
 * captured split payments, and a reversal gives back (docs/sandbox-payments.md, "Marketplace transfers").
 * On each store, since the balance is kept between requests.
 */
sandboxPerStore('marketplace.test.ts', 'transfer checks and balances on the $name store', (sb) => {
  let clients: Clients;
  let accountId: string;
  beforeAll(async () => {
    const merchant = await newMerchant(sb.url);
    clients = clientsFor(sb.url, merchant);
    accountId = merchant.account_ids[0] as string;
  });

  const send = (recipient: string, value: number, change: { provider_id?: string; currency?: string; description?: string } = {}) =>
    clients.marketplace.createTransfer({
      body: {
        ...fixtures.createTransfer(recipient),
        account_id: accountId,
        provider_id: change.provider_id ?? 'SANDBOX',
        amount: { currency: change.currency ?? 'BRL', value },
        ...(change.description ? { description: change.description } : {}),
      },
      headers: key(),
    });

  it('refuses a provider the account has no connection with: 400 PROVIDER_NOT_FOUND', async () => {
    const r = await fundedRecipient(clients, accountId);
    expect(await send(r, 10, { provider_id: 'NO_SUCH_PSP' })).toMatchObject({ status: 400, body: { code: 'PROVIDER_NOT_FOUND' } });
  });

  it('refuses a recipient never onboarded, or still PENDING, with the provider: 400 ONBOARDING_NOT_VALID', async () => {
    const never = await newRecipient(clients, accountId, { onboardings: [] });
    expect(await send(never, 10)).toMatchObject({ status: 400, body: { code: 'ONBOARDING_NOT_VALID', messages: [expect.stringContaining('is not onboarded')] } });
    const pending = await newRecipient(clients, accountId, {
      onboardings: [{ type: 'ONBOARD_ONTO_THE_PROVIDER', workflow: 'HOSTED_BY_PROVIDER', provider: { id: 'OTHER_PSP', connection_id: 'conn-2' } }],
    });
    // OTHER_PSP is now a provider the account is connected with: the onboarding is what fails.
    expect(await send(pending, 10, { provider_id: 'OTHER_PSP' })).toMatchObject({ status: 400, body: { code: 'ONBOARDING_NOT_VALID', messages: [expect.stringContaining('PENDING')] } });
    expect(await send(never, 10, { provider_id: 'OTHER_PSP' })).toMatchObject({ status: 400, body: { code: 'ONBOARDING_NOT_VALID' } });
  });

  it("refuses a currency the recipient is not paid out in: 400 CURRENCY_NOT_SUPPORTED", async () => {
    const r = await fundedRecipient(clients, accountId);
    expect(await send(r, 10, { currency: 'USD' })).toMatchObject({ status: 400, body: { code: 'CURRENCY_NOT_SUPPORTED', messages: [expect.stringContaining('BRL')] } });
    // A code that is no currency at all is not supported either, refused by the contract before the recipient is read.
    expect(await send(r, 10, { currency: 'XYZ' })).toMatchObject({ status: 400, body: { code: 'CURRENCY_NOT_SUPPORTED', messages: [expect.stringContaining('body.amount.currency')] } });
  });

  it('pays from the balance, refuses past it (400 INSUFFICIENT_BALANCE), and a reversal gives back', async () => {
    const r = await newRecipient(clients, accountId);
    expect(await send(r, 10)).toMatchObject({ status: 400, body: { code: 'INSUFFICIENT_BALANCE' } });
    const funded = await clients.sandbox.fundRecipientBalance({ params: { recipient_id: r }, body: { amount: { currency: 'BRL', value: 100 } } });
    expect(funded).toMatchObject({ status: 200, body: { recipient_id: r, account_id: accountId, balances: [{ currency: 'BRL', value: 100 }] } });
    const first = await send(r, 60.5);
    expect(first).toMatchObject({ status: 201, body: { status: 'SUCCEEDED' } });
    expect(await balanceOf(clients, r)).toEqual([{ currency: 'BRL', value: 39.5 }]);
    expect(await send(r, 39.5001)).toMatchObject({ status: 400, body: { code: 'INSUFFICIENT_BALANCE' } });
    // A declined transfer moves nothing.
    expect(await send(r, 39.5, { description: 'DECLINED' })).toMatchObject({ status: 201, body: { status: 'DECLINED' } });
    expect(await balanceOf(clients, r)).toEqual([{ currency: 'BRL', value: 39.5 }]);
    if (first.status !== 201) throw new Error('transfer');
    const reversed = await clients.marketplace.reverseTransfer({ params: { transfer_id: first.body.id }, body: { ...fixtures.reverseTransfer(), account_id: accountId, amount: { currency: 'BRL', value: 20 } }, headers: key() });
    expect(reversed.status).toBe(200);
    expect(await balanceOf(clients, r)).toEqual([{ currency: 'BRL', value: 59.5 }]);
    expect(await send(r, 59.5)).toMatchObject({ status: 201, body: { status: 'SUCCEEDED' } });
    expect(await balanceOf(clients, r)).toEqual([{ currency: 'BRL', value: 0 }]);
  });

  it('never pays more than the balance under 20 concurrent transfers', async () => {
    const r = await fundedRecipient(clients, accountId, 100);
    const results = await Promise.all(Array.from({ length: 20 }, () => send(r, 12.5)));
    expect(results.filter((x) => x.status === 201)).toHaveLength(8);
    expect(results.filter((x) => x.status !== 201).every((x) => x.status === 400 && (x.body as { code: string }).code === 'INSUFFICIENT_BALANCE')).toBe(true);
    expect(await balanceOf(clients, r)).toEqual([{ currency: 'BRL', value: 0 }]);
  });

  it('credits the recipients of a split payment when it is captured, not when it is only authorized', async () => {
    const r = await newRecipient(clients, accountId);
    const pay = async (capture: boolean) => {
      const session = await clients.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId, country: 'BR', amount: { currency: 'BRL', value: 100 } } });
      if (session.status !== 200) throw new Error(`session: ${JSON.stringify(session.body)}`);
      const body = { ...fixtures.createPayment(session.body.checkout_session, '4111111111111111'), account_id: accountId, country: 'BR' as const, amount: { currency: 'BRL', value: 100 } };
      const card = body.payment_method.detail?.card;
      if (card) card.capture = capture;
      body.split_marketplace = [
        { recipient_id: r, type: 'PURCHASE', amount: { currency: 'BRL', value: 90 } },
        { type: 'COMMISSION', amount: { currency: 'BRL', value: 10 } },
      ];
      const res = await clients.payments.create({ body, headers: key() });
      if (res.status !== 201) throw new Error(`payment: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    await pay(true);
    expect(await balanceOf(clients, r)).toEqual([{ currency: 'BRL', value: 90 }]);
    const authorized = await pay(false);
    expect(await balanceOf(clients, r)).toEqual([{ currency: 'BRL', value: 90 }]);
    const captured = await clients.payments.capture({ params: { payment_id: authorized.id, transaction_id: authorized.transactions?.id as string }, body: { ...fixtures.capture(), amount: { currency: authorized.amount.currency, value: authorized.amount.value } } });
    expect(captured.status).toBeLessThan(300);
    expect(await balanceOf(clients, r)).toEqual([{ currency: 'BRL', value: 180 }]);
    expect(await send(r, 180)).toMatchObject({ status: 201, body: { status: 'SUCCEEDED' } });
  });

  it('funds only a known recipient, up to the largest amount', async () => {
    const unknown = await clients.sandbox.fundRecipientBalance({ params: { recipient_id: '00000000-0000-4000-8000-000000000000' }, body: { amount: { currency: 'BRL', value: 1 } } });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'RECIPIENT_NOT_FOUND' } });
    const r = await newRecipient(clients, accountId);
    expect((await clients.sandbox.fundRecipientBalance({ params: { recipient_id: r }, body: { amount: { currency: 'BRL', value: 9_999_999_999 } } })).status).toBe(200);
    expect(await clients.sandbox.fundRecipientBalance({ params: { recipient_id: r }, body: { amount: { currency: 'BRL', value: 0.0001 } } })).toMatchObject({ status: 400, body: { code: 'INVALID_AMOUNT' } });
  });
});
