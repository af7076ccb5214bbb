import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { totalWithParts } from '../test-support/money-arbitraries.js';
import { fromUnits, toUnits } from './money.js';
import { presentTransfer, reverse, type TransferState } from './transfers.js';

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
