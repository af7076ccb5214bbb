import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { totalWithParts } from '../test-support/money-arbitraries.js';
import { fromUnits, toUnits } from './money.js';
import { checkTransfer, presentTransfer, providersOf, reverse, type TransferRecipient, type TransferState } from './transfers.js';

const T0 = '2026-01-01T00:00:00.000Z';

function transfer(units: number): TransferState {
  return {
    id: 'tr1', account_id: 'a', recipient_id: 'r', provider_id: 'p', currency: 'BRL', amount_units: units, reversed_units: 0, status: 'SUCCEEDED',
    reason: null, description: null, merchant_reference: null, metadata: [],
    transactions: [{ code: 'c0', type: 'SPLIT_TRANSFER', status: 'SUCCEEDED', amount_units: units, provider_transfer_id: 'p0', provider_response_message: '', created_at: T0, updated_at: T0 }],
    created_at: T0, updated_at: T0, completed_at: T0,
  };
}

const cmd = (units: number | undefined, code: string) => ({ amountUnits: units, reason: null, description: null, merchantReference: null, code, now: T0 });

// §4.5: full or partial reversals; the reversed total never exceeds the transfer, over every
// amount the contract accepts (docs/sandbox.md, "Money").
describe('reversal sums over the whole accepted range', () => {
  it('partial reversals then "the rest" add up exactly to the transfer, and its view shows exact values', () => {
    fc.assert(
      fc.property(totalWithParts(), ({ total, parts }) => {
        let t = transfer(total);
        [...parts.map((units) => toUnits(fromUnits(units))), undefined].forEach((units, i) => {
          if (units !== undefined) expect(() => reverse(t, cmd(total - t.reversed_units + 1, 'over'))).toThrow(/exceeds/);
          t = reverse(t, cmd(units, `c${i + 1}`)).transfer;
        });
        expect([t.reversed_units, t.status]).toEqual([total, 'REVERSED']);
        const view = presentTransfer(t);
        expect(view.amount.value).toBe(fromUnits(total));
        const reversals = view.transactions.filter((x) => x.type === 'SPLIT_TRANSFER_REVERSE').map((x) => toUnits(x.amount?.value ?? Number.NaN));
        expect(reversals.reduce((a, b) => a + b, 0)).toBe(total);
        expect(() => reverse(t, cmd(1, 'late'))).toThrow(/already fully reversed/);
      }),
      { numRuns: 500 },
    );
  });
});

// Upstream refuses a transfer with 400 PROVIDER_NOT_FOUND, ONBOARDING_NOT_VALID
// or CURRENCY_NOT_SUPPORTED (Create Standalone Transfer); the order of the checks
// and what makes a provider known are the sandbox's (docs/sandbox.md, "Marketplace transfers").
describe('checkTransfer', () => {
  type Onboarding = TransferRecipient['onboardings'][number];
  const onboarding = (provider: string, status: string, currency?: string): Onboarding => ({
    id: '00000000-0000-4000-8000-000000000001', type: 'PREVIOUSLY_ONBOARDED', workflow: 'DIRECT', description: '', status, callback_url: '',
    provider: { id: provider, connection_id: 'c', recipient_id: null, recipient_type: null, redirect_url: null, onboarding_url: null, legal_entity: null, balance_account_id: null, legal_entity_id: null },
    documentation: [], requirements: [],
    ...(currency ? { withdrawal_methods: { bank: { code: null, branch: null, branch_digit: null, account: null, account_digit: null, account_type: null, routing: null, country: null, currency } } } : {}),
    created_at: T0, updated_at: T0,
  });
  const recipient = (onboardings: Onboarding[], payout: string | null = null): TransferRecipient => ({
    id: 'r1',
    onboardings,
    withdrawal_methods: payout ? { bank: { code: null, branch: null, branch_digit: null, account: null, account_digit: null, account_type: null, routing: null, country: null, currency: payout } } : null,
  });
  const codeOf = (fn: () => void) => {
    try {
      fn();
      return 'accepted';
    } catch (e) {
      return (e as { code: string }).code;
    }
  };
  const none = new Set<string>();

  it('knows the sandbox provider always, and others only through the account', () => {
    expect(codeOf(() => checkTransfer(recipient([onboarding('SANDBOX', 'SUCCEEDED')]), 'SANDBOX', 'BRL', none))).toBe('accepted');
    expect(codeOf(() => checkTransfer(recipient([]), 'ACME_PSP', 'BRL', none))).toBe('PROVIDER_NOT_FOUND');
    expect(codeOf(() => checkTransfer(recipient([]), 'ACME_PSP', 'BRL', new Set(['ACME_PSP'])))).toBe('ONBOARDING_NOT_VALID');
    expect(providersOf([{ account_id: 'a', onboardings: [onboarding('X', 'PENDING')] }, { account_id: 'b', onboardings: [onboarding('Y', 'SUCCEEDED')] }], 'a')).toEqual(new Set(['X']));
  });

  it('needs a SUCCEEDED onboarding with that very provider', () => {
    expect(codeOf(() => checkTransfer(recipient([]), 'SANDBOX', 'BRL', none))).toBe('ONBOARDING_NOT_VALID');
    expect(codeOf(() => checkTransfer(recipient([onboarding('SANDBOX', 'PENDING')]), 'SANDBOX', 'BRL', none))).toBe('ONBOARDING_NOT_VALID');
    expect(codeOf(() => checkTransfer(recipient([onboarding('OTHER', 'SUCCEEDED')]), 'SANDBOX', 'BRL', new Set(['OTHER'])))).toBe('ONBOARDING_NOT_VALID');
    expect(codeOf(() => checkTransfer(recipient([onboarding('SANDBOX', 'PENDING'), onboarding('SANDBOX', 'SUCCEEDED')]), 'SANDBOX', 'BRL', none))).toBe('accepted');
  });

  it("takes the payout currency of the onboarding's bank, else of the recipient's, else any", () => {
    expect(codeOf(() => checkTransfer(recipient([onboarding('SANDBOX', 'SUCCEEDED', 'USD')], 'BRL'), 'SANDBOX', 'BRL', none))).toBe('CURRENCY_NOT_SUPPORTED');
    expect(codeOf(() => checkTransfer(recipient([onboarding('SANDBOX', 'SUCCEEDED', 'USD')], 'BRL'), 'SANDBOX', 'USD', none))).toBe('accepted');
    expect(codeOf(() => checkTransfer(recipient([onboarding('SANDBOX', 'SUCCEEDED')], 'BRL'), 'SANDBOX', 'USD', none))).toBe('CURRENCY_NOT_SUPPORTED');
    expect(codeOf(() => checkTransfer(recipient([onboarding('SANDBOX', 'SUCCEEDED')]), 'SANDBOX', 'MXN', none))).toBe('accepted');
  });
});
