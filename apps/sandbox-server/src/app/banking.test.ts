import { describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import { newMerchant, sandboxWithMerchant } from '../test-support/harness.js';

const w = sandboxWithMerchant();

const uuidKey = () => ({ 'x-idempotency-key': crypto.randomUUID() });

async function entity(merchantEntityId = `ent-${crypto.randomUUID()}`) {
  const res = await w.clients.banking.createEntity({ body: { ...fixtures.createIndividualEntity(), account_id: w.accountId, merchant_entity_id: merchantEntityId }, headers: uuidKey() });
  if (res.status !== 201) throw new Error(`entity: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function onboard(entityId: string, body = fixtures.createOnboarding()) {
  return w.clients.banking.createOnboarding({ params: { entity_id: entityId }, body: { ...body, account_id: w.accountId }, headers: uuidKey() });
}

describe('banking entities (§4.8)', () => {
  it('creates an entity (201, ent_) with tax id and document number reduced to their last 4', async () => {
    const e = await entity();
    expect(e.id).toMatch(/^ent_/);
    expect(e.entity_detail.individual).toMatchObject({ tax_information: [{ tax_id_last_4: '6789' }], document: { document_number_last_4: '4567' } });
    const text = JSON.stringify(e);
    expect(text).not.toContain('123-45-6789');
    expect(text).not.toContain('X1234567');
    const events = await w.clients.sandbox.listEvents({ query: { resource_id: e.id } });
    expect(JSON.stringify(events.body)).not.toContain('123-45-6789');
  });

  it('masks beneficial owners of a company too', async () => {
    const res = await w.clients.banking.createEntity({ body: { ...fixtures.createCompanyEntity(), account_id: w.accountId }, headers: uuidKey() });
    expect(res).toMatchObject({ status: 201, body: { entity_detail: { individual: null, entity: { tax_information: [{ tax_id_last_4: '6789' }], beneficial_owners: [{ ownership_percentage: 60 }] } } } });
    expect(JSON.stringify(res.body)).not.toContain('12-3456789');
  });

  it('answers 409 DUPLICATE_ENTITY with http_code for a repeated merchant_entity_id', async () => {
    await entity('dup-entity');
    const res = await w.clients.banking.createEntity({ body: { ...fixtures.createIndividualEntity(), account_id: w.accountId, merchant_entity_id: 'dup-entity' }, headers: uuidKey() });
    expect(res).toMatchObject({ status: 409, body: { code: 'DUPLICATE_ENTITY', http_code: 409 } });
  });

  it('needs a UUID idempotency key and names validation failures VALIDATION_ERROR with http_code', async () => {
    const res = await w.clients.banking.createEntity({ body: { ...fixtures.createIndividualEntity(), account_id: w.accountId }, headers: { 'x-idempotency-key': 'not-a-uuid' } });
    expect(res).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', http_code: 400, messages: ['headers.x-idempotency-key: must be a valid uuid'] } });
  });
});

describe('banking onboardings (§4.4) and accounts (§4.14)', () => {
  it('ONE_STEP starts PENDING (201, onb_); SUCCEEDED opens an ACTIVE acct_ account', async () => {
    const e = await entity();
    const created = await onboard(e.id);
    expect(created).toMatchObject({ status: 201, body: { status: 'PENDING', onboarding_type: 'ONE_STEP', entity_id: e.id } });
    if (created.status !== 201) return;
    expect(created.body.id).toMatch(/^onb_/);
    const read = await w.clients.banking.getOnboarding({ params: { entity_id: e.id, onboarding_id: created.body.id } });
    expect(read).toMatchObject({ status: 200, body: { status: 'PENDING' } });
    const settled = await w.clients.sandbox.onboardingOutcome({ params: { onboarding_id: created.body.id }, body: { status: 'SUCCEEDED' } });
    // The expiry stays as stamped at creation once settled, as upstream's SUCCEEDED example shows (Get Entity Onboarding Status (Banking Connectivity)).
    expect(settled).toMatchObject({ status: 200, body: { onboarding: { status: 'SUCCEEDED', expires_at: created.body.expires_at }, account: { status: 'ACTIVE', account_type: 'CHECKING', currency: 'USD', entity_id: e.id } } });
    if (settled.status !== 200 || !settled.body.account) return;
    const accountIdPath = settled.body.account.id;
    expect(accountIdPath).toMatch(/^acct_[0-9a-z]{31}$/);
    const updated = await w.clients.banking.updateAccount({ params: { account_id: accountIdPath }, body: { account_id: w.accountId, account_type: 'SAVINGS' } });
    expect(updated).toMatchObject({ status: 200, body: { account_type: 'SAVINGS', status: 'ACTIVE', currency: 'USD' } });
    const unchanged = await w.clients.banking.updateAccount({ params: { account_id: accountIdPath }, body: { account_id: w.accountId } });
    expect(unchanged).toMatchObject({ status: 200, body: { account_type: 'SAVINGS' } });
    expect(await w.clients.sandbox.onboardingOutcome({ params: { onboarding_id: created.body.id }, body: { status: 'FAILED' } })).toMatchObject({ status: 400, body: { code: 'INVALID_STATE' } });
  });

  it('requires compliance_declaration for ONE_STEP (400 VALIDATION_ERROR)', async () => {
    const e = await entity();
    const body = fixtures.createOnboarding();
    delete body.compliance_declaration;
    expect(await onboard(e.id, body)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', http_code: 400, messages: ['body.compliance_declaration: is required for ONE_STEP onboarding'] } });
  });

  it('PREVIOUSLY_ONBOARDED succeeds without the provider and opens the account', async () => {
    const e = await entity();
    const res = await onboard(e.id, { account_id: w.accountId, service_connection_id: 'conn-1', onboarding_type: 'PREVIOUSLY_ONBOARDED' });
    expect(res).toMatchObject({ status: 201, body: { status: 'SUCCEEDED', provider: { status: 'NOT_CONTACTED' } } });
    // Upstream echoes the merchant's account id (Create Entity Onboarding (Banking Connectivity)), not the banking account's.
    if (res.status === 201) expect(res.body.service_account_id).toBe(w.accountId);
  });

  // Upstream types `provider.entity_id` and `expires_at` as strings; a
  // PREVIOUSLY_ONBOARDED onboarding "generates an internal ID without contacting the provider"
  // (Create Entity Onboarding (Banking Connectivity)) and a SUCCEEDED one keeps its creation-time expiry
  // (Get Entity Onboarding Status (Banking Connectivity)).
  it('gives a PREVIOUSLY_ONBOARDED onboarding an internal provider id and an expiry, and keeps them when read', async () => {
    const e = await entity();
    const res = await onboard(e.id, { account_id: w.accountId, service_connection_id: 'conn-1', onboarding_type: 'PREVIOUSLY_ONBOARDED' });
    if (res.status !== 201) throw new Error(`onboarding: ${JSON.stringify(res.body)}`);
    expect(res.body.provider.entity_id).toMatch(/^prv_ent_/);
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(7 * 86400_000);
    const read = await w.clients.banking.getOnboarding({ params: { entity_id: e.id, onboarding_id: res.body.id } });
    expect(read).toMatchObject({ status: 200, body: { status: 'SUCCEEDED', expires_at: res.body.expires_at, provider: { entity_id: res.body.provider.entity_id } } });
  });

  it('answers 404 for an unknown entity, onboarding or account, with http_code', async () => {
    expect(await onboard('ent_missing')).toMatchObject({ status: 404, body: { code: 'ENTITY_NOT_FOUND', http_code: 404 } });
    const e = await entity();
    expect(await w.clients.banking.getOnboarding({ params: { entity_id: e.id, onboarding_id: 'onb_missing' } })).toMatchObject({ status: 404, body: { code: 'ONBOARDING_NOT_FOUND' } });
    expect(await w.clients.banking.updateAccount({ params: { account_id: 'acct_0000000000000000000000000000000' }, body: { account_id: w.accountId } })).toMatchObject({
      status: 404,
      body: { code: 'ACCOUNT_NOT_FOUND', http_code: 404 },
    });
  });

  // The expiry is checked to the second, on a sandbox of its own whose clock is frozen (a seed
  // freezes it): sandbox time moves only when the test advances it. On a clock that follows the
  // machine's, a slow machine spends that second between the onboarding and the read.
  const frozen = sandboxWithMerchant({ seed: 'onboarding-expiry' });

  // Upstream's onboarding expires 7 days after creation (Create Entity Onboarding (Banking Connectivity), 201 example).
  it('expires a pending onboarding after 7 days of sandbox time, not before', async () => {
    const { merchant: m, clients: c } = frozen;
    const e = await c.banking.createEntity({ body: { ...fixtures.createIndividualEntity(), account_id: m.account_ids[0] as string }, headers: uuidKey() });
    if (e.status !== 201) throw new Error('setup');
    const o = await c.banking.createOnboarding({ params: { entity_id: e.body.id }, body: { ...fixtures.createOnboarding(), account_id: m.account_ids[0] as string }, headers: uuidKey() });
    if (o.status !== 201) throw new Error('setup');
    expect(o.body).toMatchObject({ status: 'PENDING', service_account_id: m.account_ids[0] });
    expect(Date.parse(o.body.expires_at as string) - Date.parse(o.body.created_at)).toBe(7 * 86400_000);
    await c.sandbox.advanceClock({ body: { seconds: 7 * 86400 - 1 } });
    expect(await c.banking.getOnboarding({ params: { entity_id: e.body.id, onboarding_id: o.body.id } })).toMatchObject({ status: 200, body: { status: 'PENDING' } });
    await c.sandbox.advanceClock({ body: { seconds: 1 } });
    expect(await c.banking.getOnboarding({ params: { entity_id: e.body.id, onboarding_id: o.body.id } })).toMatchObject({ status: 200, body: { status: 'EXPIRED' } });
  });

  it("refuses another w.merchant's account id on update (403 with http_code)", async () => {
    const other = await newMerchant(w.sb.url);
    const res = await w.clients.banking.updateAccount({ params: { account_id: 'acct_0000000000000000000000000000000' }, body: { account_id: other.account_ids[0] as string } });
    expect(res).toMatchObject({ status: 403, body: { code: 'AUTHORIZATION_REQUIRED', http_code: 403 } });
  });
});
