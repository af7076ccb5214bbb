import { describe, expect, it } from 'vitest';
import { chooseOutcome, detectBrand, isExpired, luhnValid, maskCard, challengeAnswer } from './cards.js';

describe('cards', () => {
  it('checks Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('4111-1111')).toBe(false);
  });

  it.each([
    ['4111111111111111', 'VISA'],
    ['5252440000000002', 'MASTERCARD'],
    ['2221000000000009', 'MASTERCARD'],
    ['370000000000002', 'AMERICAN_EXPRESS'],
    ['3647166000000002', 'DINERS'],
    ['6011000000000004', 'DISCOVER'],
    ['3530111333300000', 'JCB'],
    ['9999999999999995', 'UNKNOWN'],
  ])('detects %s as %s', (number, brand) => expect(detectBrand(number)).toBe(brand));

  it('keeps 8 digits of iin for 16-digit cards and 6 for shorter ones, and the last 4', () => {
    expect(maskCard('4111111111111111', 'k')).toMatchObject({ iin: '41111111', lfd: '1111', number_length: 16 });
    expect(maskCard('370000000000002', 'k')).toMatchObject({ iin: '370000', lfd: '0002', number_length: 15 });
  });

  it('keys the fingerprint per merchant', () => {
    expect(maskCard('4111111111111111', 'a').fingerprint).toBe(maskCard('4111111111111111', 'a').fingerprint);
    expect(maskCard('4111111111111111', 'a').fingerprint).not.toBe(maskCard('4111111111111111', 'b').fingerprint);
    expect(maskCard('4111111111111111', 'a').fingerprint).not.toContain('1111');
  });

  it('declines a number that fails the Luhn check INVALID_CARD_DATA, whatever the description asks', () => {
    expect(chooseOutcome('5067555612342011', 'SUCCEEDED')).toMatchObject({ kind: 'declined', code: 'INVALID_CARD_DATA' });
    expect(chooseOutcome('4111111111111112', '')).toMatchObject({ kind: 'declined', code: 'INVALID_CARD_DATA' });
  });

  it('picks outcomes: known numbers, then suffix, then description, else approve', () => {
    expect(chooseOutcome('4000000000000002', '')).toMatchObject({ kind: 'declined', code: 'DECLINED_BY_BANK' });
    expect(chooseOutcome('4507990000000010', 'SUCCEEDED')).toMatchObject({ kind: 'declined', code: 'INSUFFICIENT_FUNDS' });
    expect(chooseOutcome('5555555555554444', 'do_not_honor')).toMatchObject({ kind: 'declined', code: 'DO_NOT_HONOR' });
    expect(chooseOutcome('5555555555554444', 'Order 1')).toEqual({ kind: 'approved', threeDSecure: 'none' });
    expect(chooseOutcome(undefined, 'ERROR')).toMatchObject({ kind: 'error' });
    expect(chooseOutcome('4916994064252017', '')).toEqual({ kind: 'challenge' });
    expect(chooseOutcome('4556557955726624', '')).toEqual({ kind: 'approved', threeDSecure: 'frictionless' });
  });

  // Upstream's notes, "Sandbox test data", name the ranges; Create Payment, example "Split marketplace"
  // pays with 4000000000000010 and upstream approves it.
  it.each([
    ['4507990000000010', 'INSUFFICIENT_FUNDS'],
    ['5252440000000028', 'DECLINED_BY_BANK'],
    ['370000000000036', 'DO_NOT_HONOR'],
    ['3647166000000069', 'REPORTED_STOLEN'],
  ])('applies the suffix rule on the test range of %s', (number, code) => {
    expect(chooseOutcome(number, '')).toMatchObject({ kind: 'declined', code });
  });

  it.each(['4000000000000010', '5555555555570010', '45079900000000010'])('leaves %s outside the test ranges to the description', (number) => {
    expect(chooseOutcome(number, 'Split payment')).toEqual({ kind: 'approved', threeDSecure: 'none' });
    expect(chooseOutcome(number, 'DO_NOT_HONOR')).toMatchObject({ kind: 'declined', code: 'DO_NOT_HONOR' });
  });

  it('expires a card after its expiry month', () => {
    const now = new Date('2028-11-30T23:59:59Z');
    expect(isExpired(11, 28, now)).toBe(false);
    expect(isExpired(11, 2028, now)).toBe(false);
    expect(isExpired(10, 28, now)).toBe(true);
    expect(isExpired(11, 28, new Date('2028-12-01T00:00:00Z'))).toBe(true);
  });
});

describe('challengeAnswer', () => {
  it("maps the issuer's one-time codes to authenticated or failed, and anything else to a typo", () => {
    expect(['1234', '4444', ' 1234 '].map(challengeAnswer)).toEqual(['authenticated', 'authenticated', 'authenticated']);
    expect(['1111', '2222', '3333'].map(challengeAnswer)).toEqual(['failed', 'failed', 'failed']);
    expect(['', '9999', '12345'].map(challengeAnswer)).toEqual(['unknown', 'unknown', 'unknown']);
  });
});
