import { describe, it } from 'vitest';
import { expectAccepted, expectRejectedAt } from '../test-support/rules.js';
import { AdditionalData, Order } from './additional-data.js';

/** additional_data.order as upstream's Create Payment types it. */
describe('additional_data.order (Create Payment)', () => {
  const ticket = { id: 't1', name: 'Ticket', type: 'VIRTUAL', amount: { value: 2000, currency: 'ARS' }, event: { id: 'e1', name: 'Event', type: 'CIRCUS', date: '2025-11-26' } };

  it('accepts a ticket whose amount is an object and whose event date is a date (tickets[])', () => expectAccepted(Order, { tickets: [ticket] }));
  it('rejects a bare number as a ticket amount', () => expectRejectedAt(Order, { tickets: [{ ...ticket, amount: 2000 }] }, 'tickets[0].amount'));
  it('rejects a date-time as the event date (format: date)', () =>
    expectRejectedAt(Order, { tickets: [{ ...ticket, event: { ...ticket.event, date: '2025-11-26T20:00:00Z' } }] }, 'tickets[0].event.date'));
  it('accepts tip_amount as the decimal string upstream types it', () => expectAccepted(Order, { tip_amount: '50.25' }));
  it('rejects a numeric tip_amount, which upstream types a string', () => expectRejectedAt(Order, { tip_amount: 50 }, 'tip_amount'));
  it('rejects a tip_amount that is not a decimal', () => expectRejectedAt(Order, { tip_amount: 'fifty' }, 'tip_amount'));
});

/** Upstream's Create Payment closes these fields to lists; a value outside is refused. */
describe('additional_data enums (Create Payment)', () => {
  const item = { id: 'i1', name: 'Item', quantity: 1, unit_amount: 10 };

  it("accepts upstream's values, an empty string where its list has one", () =>
    expectAccepted(AdditionalData, {
      airline: { type: 'ROUNDTRIP', passengers: [{ type: '', loyalty_tier: '2', nationality: 'BR' }] },
      order: {
        items: [{ ...item, category: 'toys_&_games' }, { ...item, category: '' }],
        taxes: [{ type: 'VAT' }],
        shipping: { type: 'SAME_DAY', carrier: 'DHL' },
        tickets: [{ type: 'PHYSICAL', event: { type: 'UNIVERCITY' } }],
      },
      seller_details: { industry: 'SAAS' },
    }));
  it.each([
    ['airline.type', { airline: { type: 'RETURN' } }],
    ['airline.passengers[0].loyalty_tier', { airline: { passengers: [{ loyalty_tier: 'GOLD' }] } }],
    ['airline.passengers[0].type', { airline: { passengers: [{ type: 'X' }] } }],
    ['airline.passengers[0].nationality', { airline: { passengers: [{ nationality: 'br' }] } }],
    ['order.items[0].category', { order: { items: [{ ...item, category: 'Toys' }] } }],
    ['order.taxes[0].type', { order: { taxes: [{ type: 'SALES' }] } }],
    ['order.shipping.type', { order: { shipping: { type: 'fast' } } }],
    ['order.shipping.carrier', { order: { shipping: { carrier: 'ACME' } } }],
    ['order.tickets[0].type', { order: { tickets: [{ type: 'PAPER' }] } }],
    ['seller_details.industry', { seller_details: { industry: 'software' } }],
  ])('refuses a value outside upstream\'s list at %s', (path, body) => expectRejectedAt(AdditionalData, body, path));
});
