import { describe, expect, it } from 'vitest';
import { formatAmount } from './money-text.js';

describe('formatAmount', () => {
  it('writes the code, grouped digits and the currency\'s usual decimals', () => {
    expect([formatAmount(1500, 'ARS'), formatAmount(249.9, 'BRL'), formatAmount(1500, 'CLP'), formatAmount(12.5, 'BHD')].map((s) => s.replace(/\u00a0/g, ' '))).toEqual([
      'ARS 1,500.00',
      'BRL 249.90',
      'CLP 1,500',
      'BHD 12.500',
    ]);
  });

  it('never rounds: an amount with more decimals than usual keeps them', () => {
    expect(formatAmount(10.1234, 'USD').replace(/\u00a0/g, ' ')).toBe('USD 10.1234');
    expect(formatAmount(0.5, 'CLP').replace(/\u00a0/g, ' ')).toBe('CLP 0.5');
  });

  it('writes a code Intl refuses after the number', () => {
    expect(formatAmount(5, 'not a code')).toBe('5 not a code');
  });
});
