import { MAX_AMOUNT_VALUE, type RecipientBalance } from '@switchyard/contract';
import { DomainError } from './errors.js';
import { fromUnits, MAX_UNITS, toUnits } from './money.js';

/**
 * What the marketplace holds for one recipient, per currency, in units of 0.0001: the source of
 * standalone transfers to it. Upstream documents INSUFFICIENT_BALANCE for a transfer but not which
 * balance; the sandbox keeps one per recipient so that what a recipient's captured split payments
 * collected is what can be transferred to it (docs/sandbox-payments.md, "Marketplace transfers").
 */
export interface BalanceState {
  recipient_id: string;
  account_id: string;
  units: Record<string, number>;
}

/**
 * The most a balance holds per currency, the largest amount the API accepts: every sum stays an
 * exact count of units (docs/sandbox-payments.md, "Money").
 */
export const MAX_BALANCE_UNITS = MAX_UNITS;

export const emptyBalance = (recipientId: string, accountId: string): BalanceState => ({ recipient_id: recipientId, account_id: accountId, units: {} });

export const available = (b: BalanceState, currency: string): number => b.units[currency] ?? 0;

const withUnits = (b: BalanceState, currency: string, units: number): BalanceState => ({ ...b, units: { ...b.units, [currency]: units } });

/** Test money added by the control route: refused when the balance would pass the maximum. */
export function fund(b: BalanceState, currency: string, units: number): BalanceState {
  const next = available(b, currency) + units;
  if (next > MAX_BALANCE_UNITS) {
    throw new DomainError('INVALID_AMOUNT', [`the balance of recipient ${b.recipient_id} would pass ${MAX_AMOUNT_VALUE} ${currency}, the most it holds`]);
  }
  return withUnits(b, currency, next);
}

/**
 * Money the recipient earned (a captured split, a reversed transfer): kept up to the maximum, never
 * refused, since the payment or reversal that brings it must not fail for the balance's sake.
 */
export const credit = (b: BalanceState, currency: string, units: number): BalanceState =>
  withUnits(b, currency, Math.min(MAX_BALANCE_UNITS, available(b, currency) + units));

/** Checks that a transfer of `units` can be paid (upstream's INSUFFICIENT_BALANCE, a 400). */
export function requireFunds(b: BalanceState, currency: string, units: number): void {
  const held = available(b, currency);
  if (units > held) {
    throw new DomainError('INSUFFICIENT_BALANCE', [`transfer of ${fromUnits(units)} ${currency} exceeds the ${fromUnits(held)} ${currency} held for recipient ${b.recipient_id}`]);
  }
}

export function debit(b: BalanceState, currency: string, units: number): BalanceState {
  requireFunds(b, currency, units);
  return withUnits(b, currency, available(b, currency) - units);
}

/** A split entry of a payment, as the payment keeps it (the request's `split_marketplace` item). */
export interface SplitEntry {
  recipient_id?: unknown;
  amount?: { currency?: unknown; value?: unknown } | unknown;
}

/**
 * The credits a captured payment's split entries give: each entry naming a recipient (`recipient_id`)
 * credits that recipient with its amount. Entries without one (the marketplace's own commission, or
 * a provider's recipient id) credit no recipient balance.
 */
export function splitCredits(entries: readonly SplitEntry[]): { recipientId: string; currency: string; units: number }[] {
  return entries.flatMap((e) => {
    const amount = e.amount as { currency?: unknown; value?: unknown } | undefined;
    if (typeof e.recipient_id !== 'string' || e.recipient_id === '' || typeof amount?.currency !== 'string' || typeof amount.value !== 'number') return [];
    return [{ recipientId: e.recipient_id, currency: amount.currency, units: toUnits(amount.value) }];
  });
}

export function presentBalance(b: BalanceState): RecipientBalance {
  return {
    recipient_id: b.recipient_id,
    account_id: b.account_id,
    balances: Object.entries(b.units)
      .sort(([a], [c]) => a.localeCompare(c))
      .map(([currency, units]) => ({ currency, value: fromUnits(units) })),
  };
}
