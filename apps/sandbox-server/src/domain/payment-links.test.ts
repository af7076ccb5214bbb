import { describe, expect, it } from 'vitest';
import type { PaymentLink } from '@switchyard/contract';
import { afterLinkPayment, followLastPayment, hasLastPaymentStatus, linkAvailability, linkState, linkStatus, type PaymentLinkState } from './payment-links.js';

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

  /** The one-time link after `last` was made with it, as the checkout stores it. */
  const after = (last: { status: string; sub_status: string }) => afterLinkPayment(oneTime, { id: 'p', ...last }, 'then');

  it('takes no second payment on a one-time link while its payment is in flight or once it went through, and one after it ended unpaid', () => {
    expect(linkState(oneTime, START)).toEqual({ payable: true });
    for (const last of [approved, authorized]) expect(linkState(after(last), START)).toMatchObject({ payable: false, reason: 'used' });
    for (const last of [challenged, waitingForPayer]) expect(linkState(after(last), START)).toMatchObject({ payable: false, reason: 'in progress', message: expect.stringContaining('in progress') });
    for (const last of endedUnpaid) expect(linkState(after(last), START)).toEqual({ payable: true });
    expect(linkState({ ...after(approved), one_time_use: false, status: 'CREATED' }, START)).toEqual({ payable: true });
  });

  it('says when a link outside its window can be paid', () => {
    const window = { ...oneTime, availability: { start_at: new Date(START).toISOString(), finish_at: new Date(FINISH).toISOString() } };
    expect(linkState(window, START - 1)).toMatchObject({ payable: false, reason: 'not yet available', message: expect.stringContaining('2026-01-01') });
    expect(linkState(window, FINISH)).toMatchObject({ payable: false, reason: 'expired', message: expect.stringContaining('2026-01-02') });
  });

  // Upstream's link statuses: "Payment link: CREATED, USED, CANCELED, EXPIRED, ERROR" (upstream's notes,
  // "Statuses"); §4.12 one_time_use "true allows one use only". A payment still pending is no use yet.
  it('is USED only by a payment that went through, not by one still pending that may end unpaid', () => {
    expect(linkStatus(oneTime, undefined)).toBe('CREATED');
    for (const last of [challenged, waitingForPayer, ...endedUnpaid]) expect(linkStatus(oneTime, last)).toBe('CREATED');
    for (const last of [approved, authorized]) expect(linkStatus(oneTime, last)).toBe('USED');
    expect(linkStatus({ one_time_use: false, status: 'CREATED' }, approved)).toBe('CREATED');
  });

  // USED is the end of a one-time link (upstream's statuses have no way back; docs/checkout.md: an
  // authorization "for a later capture ... uses the link up"): cancelling that authorization or
  // refunding the payment afterwards does not make the link payable again.
  it('stays USED when the payment that used it is cancelled or refunded afterwards', () => {
    const used = after(authorized);
    for (const later of [{ status: 'CANCELED', sub_status: 'CANCELED' }, { status: 'REFUNDED', sub_status: 'REFUNDED' }]) {
      expect(linkStatus(used, later)).toBe('USED');
      const followed = followLastPayment(used, { id: 'p', ...later }, 'later');
      expect(followed).toMatchObject({ status: 'USED', last_payment_status: later, updated_at: 'then' });
      expect(linkState(followed as PaymentLinkState, START)).toMatchObject({ payable: false, reason: 'used' });
    }
  });

  it('counts every payment, and gives the link the status its last payment makes', () => {
    const declined = afterLinkPayment(oneTime, { id: 'p1', status: 'DECLINED', sub_status: 'DECLINED' }, 'now');
    expect([declined.payments_number, declined.status, declined.last_payment_id]).toEqual([1, 'CREATED', 'p1']);
    const pending = afterLinkPayment(declined, { id: 'p2', ...challenged }, 'now');
    expect([pending.payments_number, pending.status, pending.last_payment_id, pending.last_payment_status]).toEqual([2, 'CREATED', 'p2', challenged]);
    const paid = afterLinkPayment(pending, { id: 'p3', ...approved }, 'now');
    expect([paid.payments_number, paid.status, paid.last_payment_id]).toEqual([3, 'USED', 'p3']);
    expect(afterLinkPayment({ ...oneTime, one_time_use: false }, { id: 'p4', ...approved }, 'now')).toMatchObject({ status: 'CREATED', last_payment_status: null });
  });
});

describe("following a one-time link's last payment", () => {
  const base = { availability: { start_at: null, finish_at: null }, one_time_use: true, payments_number: 0, status: 'CREATED', updated_at: 'then' } as unknown as PaymentLink;
  const challenged = afterLinkPayment({ ...base, code: 'c', id: 'l' }, { id: 'p', status: 'PENDING', sub_status: 'WAITING_ADDITIONAL_STEP' }, 'then');

  it('keeps the payment\'s status on the link, and moves the link\'s status (and updated_at) when the payment goes through', () => {
    const declined = { id: 'p', status: 'DECLINED', sub_status: 'DECLINED' };
    expect(followLastPayment(challenged, declined, 'now')).toMatchObject({ status: 'CREATED', last_payment_status: { status: 'DECLINED', sub_status: 'DECLINED' }, updated_at: 'then' });
    expect(followLastPayment(challenged, { id: 'p', status: 'SUCCEEDED', sub_status: 'APPROVED' }, 'now')).toMatchObject({ status: 'USED', updated_at: 'now' });
  });

  it('changes nothing for a payment that is not the last one, a link for many payments, or a status it already keeps', () => {
    const approved = { status: 'SUCCEEDED', sub_status: 'APPROVED' };
    expect(followLastPayment(challenged, { id: 'older', ...approved }, 'now')).toBeUndefined();
    expect(followLastPayment({ ...challenged, one_time_use: false }, { id: 'p', ...approved }, 'now')).toBeUndefined();
    expect(followLastPayment(challenged, { id: 'p', status: 'PENDING', sub_status: 'WAITING_ADDITIONAL_STEP' }, 'now')).toBeUndefined();
  });

  // Links stored before they kept their last payment's status have `last_payment_id` alone: read by
  // their status as then (USED used, CREATED open) until the checkout reads the payment once.
  it('reads a link stored before it kept its last payment\'s status by its status', () => {
    const { last_payment_status: _, ...stored } = challenged;
    expect(hasLastPaymentStatus(stored)).toBe(false);
    expect(linkState(stored, START)).toEqual({ payable: true });
    expect(linkState({ ...stored, status: 'USED' }, START)).toMatchObject({ payable: false, reason: 'used' });
    expect(hasLastPaymentStatus(challenged)).toBe(true);
    expect(hasLastPaymentStatus({ ...stored, one_time_use: false })).toBe(true);
    expect(hasLastPaymentStatus({ ...stored, last_payment_id: null })).toBe(true);
    expect(followLastPayment(stored, { id: 'p', status: 'PENDING', sub_status: 'WAITING_ADDITIONAL_STEP' }, 'now')).toMatchObject({ status: 'CREATED', last_payment_status: { status: 'PENDING' } });
  });
});
