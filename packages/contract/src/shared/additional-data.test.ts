import { describe, it } from 'vitest';
import { expectAccepted, expectRejectedAt } from '../test-support/rules.js';
import { Order } from './additional-data.js';

/** Additional_data.order as upstream's Create Payment types it. */
describe('additional_data.order (create-payment.json)', () => {
  const ticket = { id: 't1', name: 'Ticket', type: 'VIRTUAL', amount: { value: 2000, currency: 'ARS' }, event: { id: 'e1', name: 'Event', type: 'CIRCUS', date: '2025-11-26' } };

  it('accepts a ticket whose amount is an object and whose event date is a date (tickets[])', () => expectAccepted(Order, { tickets: [ticket] }));
  it('rejects a bare number as a ticket amount', () => expectRejectedAt(Order, { tickets: [{ ...ticket, amount: 2000 }] }, 'tickets[0].amount'));
  it('rejects a date-time as the event date (format: date)', () =>
    expectRejectedAt(Order, { tickets: [{ ...ticket, event: { ...ticket.event, date: '2025-11-26T20:00:00Z' } }] }, 'tickets[0].event.date'));
  it('accepts tip_amount as the string upstream types it and as the number its examples send', () => {
    expectAccepted(Order, { tip_amount: '50.25' });
    expectAccepted(Order, { tip_amount: 50 });
  });
  it('rejects a tip_amount that is not a decimal', () => expectRejectedAt(Order, { tip_amount: 'fifty' }, 'tip_amount'));
});
