import { describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { idemKey, sandboxWithMerchant } from '../test-support/harness.js';

const w = sandboxWithMerchant();

const key = () => ({ 'x-idempotency-key': idemKey() });

async function recipientId() {
  const res = await w.clients.marketplace.createRecipient({ body: { ...fixtures.createRecipient(), account_id: w.accountId } });
  if (res.status !== 201) throw new Error(`recipient: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

async function transfer(value = 100, description?: string) {
  const res = await w.clients.marketplace.createTransfer({ body: { ...fixtures.createTransfer(await recipientId()), account_id: w.accountId, amount: { currency: 'BRL', value }, ...(description ? { description } : {}) }, headers: key() });
  if (res.status !== 201) throw new Error(`transfer: ${JSON.stringify(res.body)}`);
  return res.body;
}

const reverse = (id: string, amount?: number, currency = 'BRL') =>
  w.clients.marketplace.reverseTransfer({ params: { transfer_id: id }, body: { ...fixtures.reverseTransfer(), account_id: w.accountId, ...(amount === undefined ? {} : { amount: { currency, value: amount } }) }, headers: key() });

describe('recipients (§4.7)', () => {
  // Issue 17 item 12: upstream types these strings and objects (create-recipient-1.json); a string
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
  it('creates a SUCCEEDED transfer (201) and 404s an unknown recipient', async () => {
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
