import { describe, expect, it } from 'vitest';
import { COMMON_ERRORS, IDEMPOTENT_OPERATIONS, STATUS_OF, contract, listRoutes, sandboxContract } from './index.js';

/** §4 and §7: the 14 spec endpoints, exactly. */
const SPEC_ROUTES = [
  { section: '4.1', method: 'POST', path: '/v1/customers/sessions/:customer_session/payment-methods', status: 201, idem: 'any' },
  { section: '4.2', method: 'POST', path: '/v1/payments/:id/transactions/:transaction_id/refund', status: 200, idem: 'any' },
  { section: '4.3', method: 'POST', path: '/v1/customers/:customer_id/payment-methods', status: 200, idem: 'any' },
  { section: '4.4', method: 'POST', path: '/v1/banking/entities/:entity_id/onboardings', status: 201, idem: 'uuid' },
  { section: '4.5', method: 'POST', path: '/v1/split-marketplace/transfers/:transfer_id/reverse', status: 200, idem: 'any' },
  { section: '4.6', method: 'POST', path: '/v1/payments/:payment_id/cancel-or-refund', status: 201, idem: 'any' },
  { section: '4.7', method: 'POST', path: '/v1/recipients', status: 201, idem: 'none' },
  { section: '4.8', method: 'POST', path: '/v1/banking/entities', status: 201, idem: 'uuid' },
  { section: '4.9', method: 'POST', path: '/v1/payments/:payment_id/transactions/:transaction_id/dispute', status: 200, idem: 'any' },
  { section: '4.10', method: 'POST', path: '/v1/checkout/sessions', status: 200, idem: 'none' },
  { section: '4.11', method: 'POST', path: '/v1/customers', status: 201, idem: 'none' },
  { section: '4.12', method: 'POST', path: '/v1/payment-links', status: 200, idem: 'none' },
  { section: '4.13', method: 'POST', path: '/v1/subscriptions/:id/retry', status: 200, idem: 'none' },
  { section: '4.14', method: 'PATCH', path: '/v1/banking/accounts/:account_id', status: 200, idem: 'none' },
] as const;


const routes = listRoutes(contract);
const keys = { 'public-api-key': 'pk', 'private-secret-key': 'sk' };
const uuid = '0f0e0d0c-0b0a-4909-8807-060504030201';

describe('the /v1 contract', () => {
  // A supporting route (referred to by the spec, modelled on upstream) says so in its metadata: the
  // list of them is the contract's, so adding one edits nothing here.
  it('has exactly the 14 spec routes; every other route is marked supporting', () => {
    const unmarked = routes.filter((r) => !r.meta.supporting).map((r) => `${r.route.method} ${r.route.path}`).sort();
    expect(unmarked).toEqual(SPEC_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('gives every route a unique operationId', () => {
    const ids = routes.map((r) => r.meta.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives a spec section to the spec routes, and none to the supporting ones', () => {
    for (const r of routes) expect(r.meta.specSection === null, `${r.route.method} ${r.route.path}`).toBe(r.meta.supporting);
  });

  describe.each(SPEC_ROUTES)('§$section $method $path', (spec) => {
    const listed = routes.find((r) => r.route.method === spec.method && r.route.path === spec.path);
    if (!listed) throw new Error(`missing route ${spec.method} ${spec.path}`);
    const { route, meta } = listed;

    it('records its spec section', () => expect(meta.specSection).toBe(spec.section));

    it(`answers ${spec.status} on success and the error shape on 400/401/403`, () => {
      const statuses = Object.keys(route.responses).map(Number);
      const successes = statuses.filter((s) => s >= 200 && s < 300);
      expect(successes).toEqual([spec.status]);
      expect(statuses).toEqual(expect.arrayContaining([400, 401, 403]));
    });

    it('requires both API keys', () => {
      const headers = route.headers as { safeParse: (v: unknown) => { success: boolean } };
      const idem = spec.idem === 'none' ? {} : { 'x-idempotency-key': uuid };
      expect(headers.safeParse({ ...keys, ...idem }).success).toBe(true);
      expect(headers.safeParse({ 'private-secret-key': 'sk', ...idem }).success).toBe(false);
      expect(headers.safeParse({ 'public-api-key': 'pk', ...idem }).success).toBe(false);
    });

    it(spec.idem === 'none' ? 'takes no idempotency key' : `requires X-Idempotency-Key (${spec.idem})`, () => {
      const headers = route.headers as { safeParse: (v: unknown) => { success: boolean } };
      expect(meta.idempotent).toBe(spec.idem !== 'none');
      if (spec.idem === 'none') return;
      expect(headers.safeParse(keys).success).toBe(false);
      expect(headers.safeParse({ ...keys, 'x-idempotency-key': 'not-a-uuid-key' }).success).toBe(spec.idem === 'any');
    });
  });

  it('exports the idempotent operations', () => {
    expect(IDEMPOTENT_OPERATIONS).toEqual(
      expect.arrayContaining([
        'enrollPaymentMethodInSession',
        'refundTransaction',
        'enrollPaymentMethodDirect',
        'createBankingOnboarding',
        'reverseTransfer',
        'cancelOrRefundPayment',
        'createBankingEntity',
        'disputeChargeback',
        'createPayment',
        'createTransfer',
        'captureAuthorization',
      ]),
    );
    expect(IDEMPOTENT_OPERATIONS).toHaveLength(11);
  });
});

describe('every route, /v1 and the control API', () => {
  const all = [...routes, ...listRoutes(sandboxContract)];

  it('has exactly one success (2xx) response, the status a server answers with', () => {
    const ambiguous = all.filter((r) => Object.keys(r.route.responses).filter((s) => s.startsWith('2')).length !== 1).map((r) => r.meta.operationId);
    expect(ambiguous).toEqual([]);
  });

  // No route writes an error status by hand: its responses hold those of the codes its metadata
  // names (withDeclaredErrors), and, when it takes the merchant's keys, those of COMMON_ERRORS.
  it('answers exactly the statuses STATUS_OF gives the codes it declares, beside its success', () => {
    for (const { route, meta } of all) {
      const codes = [...meta.errors, ...(meta.auth === 'none' ? [] : COMMON_ERRORS)];
      const errors = new Set(codes.map((code) => STATUS_OF[code]));
      const statuses = Object.keys(route.responses).map(Number).filter((status) => status >= 300);
      expect(statuses.sort(), meta.operationId).toEqual([...errors].sort());
    }
  });

  it("needs the merchant's keys, except merchant creation (auth: 'none')", () => {
    expect(all.filter((r) => r.meta.auth === 'none').map((r) => r.meta.operationId)).toEqual(['sandboxCreateMerchant']);
  });
});
