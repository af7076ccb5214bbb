import { describe, expect, it } from 'vitest';
import { bodyFieldCodeOf, meta } from './meta.js';
import { contract } from './index.js';

describe('bodyFieldCodeOf', () => {
  const route = meta({ operationId: 'x', idempotent: false, supporting: true, specSection: null, domain: 'webhooks', errors: [], bodyFieldCodes: { triggers: 'WEBHOOK_INVALID_TRIGGER', 'amount.currency': 'INVALID_CURRENCY' } });

  it("gives a field's own code, and the code of the nearest field holding it", () => {
    expect(bodyFieldCodeOf(route, ['triggers'])).toBe('WEBHOOK_INVALID_TRIGGER');
    expect(bodyFieldCodeOf(route, ['triggers', 2])).toBe('WEBHOOK_INVALID_TRIGGER');
    expect(bodyFieldCodeOf(route, ['amount', 'currency'])).toBe('INVALID_CURRENCY');
  });

  it('gives none for a field that holds a coded one, a sibling, the body itself, or a route without codes', () => {
    expect(bodyFieldCodeOf(route, ['amount'])).toBeUndefined();
    expect(bodyFieldCodeOf(route, ['amount', 'value'])).toBeUndefined();
    expect(bodyFieldCodeOf(route, [])).toBeUndefined();
    expect(bodyFieldCodeOf({ ...route, bodyFieldCodes: undefined }, ['triggers'])).toBeUndefined();
  });

  it("gives a transfer's currency upstream's own codes (Create Standalone Transfer, Reverse Standalone Transfer)", () => {
    expect(bodyFieldCodeOf(contract.marketplace.createTransfer.metadata, ['amount', 'currency'])).toBe('CURRENCY_NOT_SUPPORTED');
    expect(bodyFieldCodeOf(contract.marketplace.reverseTransfer.metadata, ['amount', 'currency'])).toBe('INVALID_CURRENCY');
  });
});
