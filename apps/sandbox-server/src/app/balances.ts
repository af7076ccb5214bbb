import type { RecipientBalance } from '@switchyard/contract';
import { credit, emptyBalance, fund, presentBalance, splitCredits, type BalanceState, type SplitEntry } from '../domain/balances.js';
import { DomainError } from '../domain/errors.js';
import { toUnits } from '../domain/money.js';
import type { StoredRecipient } from '../domain/recipient-view.js';
import type { Tx } from '../store/types.js';
import type { RequestContext } from './context.js';

/** The recipient of the merchant's account (another account's is not found, as upstream scopes recipients by account). */
export async function loadRecipient(tx: Tx, recipientId: string, accountId?: string): Promise<StoredRecipient> {
  const recipient = await tx.get<StoredRecipient>('recipient', recipientId);
  if (!recipient || (accountId !== undefined && recipient.account_id !== accountId)) throw new DomainError('RECIPIENT_NOT_FOUND', [`recipient ${recipientId} not found`]);
  return recipient;
}

/** The balance kept for a recipient (one record per recipient, in the merchant's store). */
export async function loadBalance(tx: Tx, recipient: Pick<StoredRecipient, 'id' | 'account_id'>): Promise<BalanceState> {
  return (await tx.get<BalanceState>('balance', recipient.id)) ?? emptyBalance(recipient.id, recipient.account_id);
}

export const saveBalance = (tx: Tx, b: BalanceState): Promise<void> => tx.put('balance', b.recipient_id, b);

export async function getRecipientBalance(ctx: RequestContext, recipientId: string): Promise<RecipientBalance> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => presentBalance(await loadBalance(tx, await loadRecipient(tx, recipientId))));
}

/** The control route: test money for a recipient, so that transfers to it can be paid. */
export async function fundRecipientBalance(ctx: RequestContext, recipientId: string, amount: { currency: string; value: number }): Promise<RecipientBalance> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const funded = fund(await loadBalance(tx, await loadRecipient(tx, recipientId)), amount.currency, toUnits(amount.value));
    await saveBalance(tx, funded);
    return presentBalance(funded);
  });
}

/**
 * A payment was just captured: each of its split entries naming a recipient of the payment's
 * account credits that recipient's balance (docs/sandbox-payments.md, "Marketplace transfers"). An entry
 * naming an unknown recipient credits nothing.
 */
export async function creditCapturedSplits(tx: Tx, accountId: string, entries: readonly SplitEntry[]): Promise<void> {
  for (const c of splitCredits(entries)) {
    const recipient = await tx.get<StoredRecipient>('recipient', c.recipientId);
    if (!recipient || recipient.account_id !== accountId) continue;
    await saveBalance(tx, credit(await loadBalance(tx, recipient), c.currency, c.units));
  }
}
