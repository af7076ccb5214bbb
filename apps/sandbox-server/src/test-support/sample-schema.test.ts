import { describe, expect, it } from 'vitest';
import { Amount, CreateRecipientBody, ISO_CURRENCIES } from '@switchyard/contract';
import { Random } from './random.js';
import { sampleOf } from './sample-schema.js';

describe('sampleOf', () => {
  // The contract accepts only ISO 4217 currency codes (shared/currencies.ts): a sample whose
  // currency were three random letters would be refused at that field, and the fuzz suite would
  // never reach the rules behind it.
  it('gives every currency field a code the contract accepts', () => {
    const random = new Random(4217);
    for (let i = 0; i < 200; i += 1) {
      const amount = sampleOf(Amount, random) as { currency: string };
      expect(ISO_CURRENCIES).toContain(amount.currency);
      expect(Amount.safeParse(amount).success).toBe(true);
      const bank = (sampleOf(CreateRecipientBody, random) as { withdrawal_methods?: { bank?: { currency?: string } } }).withdrawal_methods?.bank;
      if (bank?.currency !== undefined) expect(ISO_CURRENCIES).toContain(bank.currency);
    }
  });
});
