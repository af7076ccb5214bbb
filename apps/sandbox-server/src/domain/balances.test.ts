import { describe, expect, it } from 'vitest';
import { credit, debit, emptyBalance, fund, MAX_BALANCE_UNITS, presentBalance, requireFunds, splitCredits } from './balances.js';
import { toUnits } from './money.js';

const empty = () => emptyBalance('r1', 'acc');

// Upstream's INSUFFICIENT_BALANCE (Create Standalone Transfer, a 400); the balance
// kept per recipient and currency is the sandbox's choice (docs/sandbox.md, "Marketplace transfers").
describe('a recipient balance', () => {
  it('is kept per currency, and a transfer takes exactly what it holds, never more', () => {
    const b = fund(fund(empty(), 'BRL', toUnits(100)), 'USD', toUnits(5));
    expect(() => requireFunds(b, 'BRL', toUnits(100.0001))).toThrow(expect.objectContaining({ code: 'INSUFFICIENT_BALANCE' }));
    expect(() => requireFunds(b, 'ARS', 1)).toThrow(expect.objectContaining({ code: 'INSUFFICIENT_BALANCE' }));
    const left = debit(b, 'BRL', toUnits(99.9999));
    expect(presentBalance(left).balances).toEqual([{ currency: 'BRL', value: 0.0001 }, { currency: 'USD', value: 5 }]);
    expect(presentBalance(debit(left, 'BRL', 1)).balances[0]).toEqual({ currency: 'BRL', value: 0 });
  });

  it('refuses to be funded past the largest amount, but keeps earned credits up to it', () => {
    const full = fund(empty(), 'BRL', MAX_BALANCE_UNITS);
    expect(() => fund(full, 'BRL', 1)).toThrow(expect.objectContaining({ code: 'INVALID_AMOUNT' }));
    expect(credit(full, 'BRL', 1).units.BRL).toBe(MAX_BALANCE_UNITS);
    expect(credit(debit(full, 'BRL', 5), 'BRL', 3).units.BRL).toBe(MAX_BALANCE_UNITS - 2);
  });
});

describe('splitCredits', () => {
  it('credits the entries that name a recipient, with their own amount and currency', () => {
    expect(
      splitCredits([
        { recipient_id: 'r1', type: 'PURCHASE', amount: { currency: 'USD', value: 900 } },
        { recipient_id: '', type: 'COMMISSION', amount: { currency: 'USD', value: 100 } },
        { provider_recipient_id: 're_x', type: 'PURCHASE', amount: { currency: 'USD', value: 5 } },
        { recipient_id: 'r2', type: 'SHIPPING', amount: { currency: 'BRL', value: 0.5 } },
      ] as Record<string, unknown>[]),
    ).toEqual([
      { recipientId: 'r1', currency: 'USD', units: toUnits(900) },
      { recipientId: 'r2', currency: 'BRL', units: toUnits(0.5) },
    ]);
  });
});
