import { describe, expect, it } from 'vitest';
import type { PaymentLink } from '@switchyard/contract';
import { afterLinkPayment, linkAvailability, linkState, type PaymentLinkState } from './payment-links.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const FINISH = Date.parse('2026-01-02T00:00:00.000Z');
const link = (start_at: string | null, finish_at: string | null) => ({ availability: { start_at, finish_at } });

describe('linkAvailability', () => {
  it('is payable from its start, up to but not at its finish', () => {
    const window = link(new Date(START).toISOString(), new Date(FINISH).toISOString());
    expect([START - 1, START, FINISH - 1, FINISH].map((at) => linkAvailability(window, at))).toEqual(['not yet available', 'available', 'available', 'expired']);
  });

  it('has no bound where a time is missing', () => {
    expect(linkAvailability(link(null, null), 0)).toBe('available');
  });
});

describe('paying a link', () => {
  const base = { availability: { start_at: null, finish_at: null }, one_time_use: true, payments_number: 0, status: 'CREATED' } as unknown as PaymentLink;
  const oneTime: PaymentLinkState = { ...base, code: 'c', id: 'l' };

  it('uses a one-time link up with a payment that went through or still may, not with one that ended unpaid', () => {
    expect(linkState(oneTime, START, undefined)).toEqual({ payable: true });
    for (const status of ['SUCCEEDED', 'PENDING', 'READY_TO_PAY']) expect(linkState(oneTime, START, status)).toMatchObject({ payable: false, reason: 'used' });
    for (const status of ['DECLINED', 'ERROR', 'EXPIRED', 'CANCELED']) expect(linkState(oneTime, START, status)).toEqual({ payable: true });
    expect(linkState({ ...oneTime, one_time_use: false }, START, 'SUCCEEDED')).toEqual({ payable: true });
  });

  it('says when a link outside its window can be paid', () => {
    const window = { ...oneTime, availability: { start_at: new Date(START).toISOString(), finish_at: new Date(FINISH).toISOString() } };
    expect(linkState(window, START - 1, undefined)).toMatchObject({ payable: false, reason: 'not yet available', message: expect.stringContaining('2026-01-01') });
    expect(linkState(window, FINISH, undefined)).toMatchObject({ payable: false, reason: 'expired', message: expect.stringContaining('2026-01-02') });
  });

  it('counts every payment and marks a one-time link USED by one that went through', () => {
    const declined = afterLinkPayment(oneTime, { id: 'p1', status: 'DECLINED' }, 'now');
    expect([declined.payments_number, declined.status, declined.last_payment_id]).toEqual([1, 'CREATED', 'p1']);
    const paid = afterLinkPayment(declined, { id: 'p2', status: 'SUCCEEDED' }, 'now');
    expect([paid.payments_number, paid.status, paid.last_payment_id]).toEqual([2, 'USED', 'p2']);
    expect(afterLinkPayment({ ...oneTime, one_time_use: false }, { id: 'p3', status: 'SUCCEEDED' }, 'now').status).toBe('CREATED');
  });
});
