import { describe, expect, it } from 'vitest';
import type { PaymentLink } from '@switchyard/contract';
import { afterLinkPayment, linkAvailability, linkState, linkStatus, type PaymentLinkState } from './payment-links.js';

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
  const approved = { status: 'SUCCEEDED', sub_status: 'APPROVED' };
  const authorized = { status: 'PENDING', sub_status: 'AUTHORIZED' };
  const challenged = { status: 'PENDING', sub_status: 'WAITING_ADDITIONAL_STEP' };
  const waitingForPayer = { status: 'READY_TO_PAY', sub_status: 'CREATED' };
  const endedUnpaid = ['DECLINED', 'ERROR', 'EXPIRED', 'CANCELED', 'REJECTED'].map((status) => ({ status, sub_status: status }));

  it('takes no second payment on a one-time link while its payment is in flight or once it went through, and one after it ended unpaid', () => {
    expect(linkState(oneTime, START, undefined)).toEqual({ payable: true });
    for (const last of [approved, authorized, { status: 'REFUNDED', sub_status: 'REFUNDED' }]) expect(linkState(oneTime, START, last)).toMatchObject({ payable: false, reason: 'used' });
    for (const last of [challenged, waitingForPayer]) expect(linkState(oneTime, START, last)).toMatchObject({ payable: false, reason: 'in progress', message: expect.stringContaining('in progress') });
    for (const last of endedUnpaid) expect(linkState(oneTime, START, last)).toEqual({ payable: true });
    expect(linkState({ ...oneTime, one_time_use: false }, START, approved)).toEqual({ payable: true });
  });

  it('says when a link outside its window can be paid', () => {
    const window = { ...oneTime, availability: { start_at: new Date(START).toISOString(), finish_at: new Date(FINISH).toISOString() } };
    expect(linkState(window, START - 1, undefined)).toMatchObject({ payable: false, reason: 'not yet available', message: expect.stringContaining('2026-01-01') });
    expect(linkState(window, FINISH, undefined)).toMatchObject({ payable: false, reason: 'expired', message: expect.stringContaining('2026-01-02') });
  });

  // Upstream's link statuses: "Payment link: CREATED, USED, CANCELED, EXPIRED, ERROR" (UPSTREAM-NOTES,
  // "Statuses"); §4.12 one_time_use "true allows one use only". A payment still pending is no use yet.
  it('is USED only by a payment that went through, not by one still pending that may end unpaid', () => {
    expect(linkStatus(oneTime, undefined)).toBe('CREATED');
    for (const last of [challenged, waitingForPayer, ...endedUnpaid]) expect(linkStatus(oneTime, last)).toBe('CREATED');
    for (const last of [approved, authorized]) expect(linkStatus(oneTime, last)).toBe('USED');
    expect(linkStatus({ one_time_use: false }, approved)).toBe('CREATED');
  });

  it('counts every payment, and gives the link the status its last payment makes', () => {
    const declined = afterLinkPayment(oneTime, { id: 'p1', status: 'DECLINED', sub_status: 'DECLINED' }, 'now');
    expect([declined.payments_number, declined.status, declined.last_payment_id]).toEqual([1, 'CREATED', 'p1']);
    const pending = afterLinkPayment(declined, { id: 'p2', ...challenged }, 'now');
    expect([pending.payments_number, pending.status, pending.last_payment_id]).toEqual([2, 'CREATED', 'p2']);
    const paid = afterLinkPayment(pending, { id: 'p3', ...approved }, 'now');
    expect([paid.payments_number, paid.status, paid.last_payment_id]).toEqual([3, 'USED', 'p3']);
    expect(afterLinkPayment({ ...oneTime, one_time_use: false }, { id: 'p4', ...approved }, 'now').status).toBe('CREATED');
  });
});
