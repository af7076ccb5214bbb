import type { Transfer } from '@switchyard/contract';
import { DomainError } from './errors.js';
import { event, type DomainEvent } from './events.js';
import { fromUnits } from './money.js';
import type { StoredRecipient } from './recipient-view.js';

/** A split transfer as the sandbox keeps it; amounts in units of 0.0001. */
export interface TransferState {
  id: string;
  account_id: string;
  recipient_id: string;
  provider_id: string;
  currency: string;
  amount_units: number;
  reversed_units: number;
  status: 'SUCCEEDED' | 'DECLINED' | 'ERROR' | 'REVERSED';
  reason: string | null;
  description: string | null;
  merchant_reference: string | null;
  metadata: { key: string; value: string }[];
  transactions: {
    code: string;
    type: 'SPLIT_TRANSFER' | 'SPLIT_TRANSFER_REVERSE';
    status: string;
    amount_units: number;
    provider_transfer_id: string;
    provider_response_message: string;
    created_at: string;
    updated_at: string;
  }[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/**
 * The provider the sandbox itself simulates (the id its enrollments report): always known, so a
 * recipient onboarded nowhere is refused for its onboarding, not for the provider.
 */
export const SANDBOX_PROVIDER_ID = 'SANDBOX';

/** The parts of a recipient a transfer depends on. */
/** What a transfer reads of a recipient, stored by any version (0.2.0 kept `withdrawal_methods: null`). */
export type TransferRecipient = Pick<StoredRecipient, 'id' | 'withdrawal_methods' | 'onboardings'>;

/**
 * Upstream refuses a standalone transfer with a 400 before calling the provider
 * (Create Standalone Transfer; the spec is silent on creation, §4.5 covers only
 * reversal). The checks run in that order:
 * - PROVIDER_NOT_FOUND: `provider_id` is neither the sandbox's own provider nor one the merchant
 *   account has a connection with (a provider any of its recipients has an onboarding with);
 * - ONBOARDING_NOT_VALID: the recipient has no SUCCEEDED onboarding with that provider (never
 *   onboarded, or still PENDING);
 * - CURRENCY_NOT_SUPPORTED: the recipient is paid out in another currency (the bank currency of
 *   that onboarding's withdrawal method, or else of the recipient's own).
 */
export function checkTransfer(recipient: TransferRecipient, providerId: string, currency: string, accountProviders: ReadonlySet<string>): void {
  if (providerId !== SANDBOX_PROVIDER_ID && !accountProviders.has(providerId)) {
    throw new DomainError('PROVIDER_NOT_FOUND', [`provider_id ${providerId}: the provider was not found; the account has no connection with it`]);
  }
  const onboarding = recipient.onboardings.find((o) => o.provider.id === providerId && o.status === 'SUCCEEDED');
  if (!onboarding) {
    const states = recipient.onboardings.filter((o) => o.provider.id === providerId).map((o) => o.status);
    const why = states.length === 0 ? 'is not onboarded with it' : `has its onboarding ${states.join(', ')}, not SUCCEEDED`;
    throw new DomainError('ONBOARDING_NOT_VALID', [`recipient ${recipient.id} ${why} (provider ${providerId}); a transfer needs a SUCCEEDED onboarding`]);
  }
  const payout = onboarding.withdrawal_methods?.bank?.currency ?? recipient.withdrawal_methods?.bank.currency ?? null;
  if (payout !== null && payout !== currency) {
    throw new DomainError('CURRENCY_NOT_SUPPORTED', [`amount.currency ${currency} is not supported: recipient ${recipient.id} is paid out in ${payout}`]);
  }
}

/** Providers the merchant account is connected with: those its recipients have onboardings with. */
export function providersOf(recipients: readonly Pick<StoredRecipient, 'account_id' | 'onboardings'>[], accountId: string): Set<string> {
  return new Set(recipients.filter((r) => r.account_id === accountId).flatMap((r) => r.onboardings.map((o) => o.provider.id)));
}

/** The transfer outcome a description asks for (sandbox test data); SUCCEEDED otherwise. */
export function transferOutcome(description: string | undefined): TransferState['status'] {
  const wanted = description?.trim().toUpperCase();
  return wanted === 'DECLINED' || wanted === 'ERROR' ? wanted : 'SUCCEEDED';
}

export interface ReverseCommand {
  amountUnits?: number;
  currency?: string;
  reason: string | null;
  description: string | null;
  merchantReference: string | null;
  code: string;
  now: string;
}

/**
 * §4.5: only a SUCCEEDED transfer can be reversed, fully (no amount: what is left) or partially.
 * The reversed total never exceeds the amount; the last reversal makes the transfer REVERSED.
 */
export function reverse(t: TransferState, cmd: ReverseCommand): { transfer: TransferState; events: DomainEvent[] } {
  if (t.status === 'REVERSED') throw new DomainError('TRANSFER_ALREADY_REVERSED', [`transfer ${t.id} is already fully reversed`]);
  if (t.status !== 'SUCCEEDED') throw new DomainError('TRANSFER_NOT_REVERSIBLE', [`transfer ${t.id} is ${t.status}; only a SUCCEEDED transfer can be reversed`]);
  if (cmd.currency !== undefined && cmd.currency !== t.currency) {
    throw new DomainError('INVALID_CURRENCY', [`amount.currency ${cmd.currency} does not match the transfer currency ${t.currency}`]);
  }
  const left = t.amount_units - t.reversed_units;
  const units = cmd.amountUnits ?? left;
  if (units > left) {
    throw new DomainError('REVERSAL_AMOUNT_EXCEEDS', [`reversal of ${fromUnits(units)} ${t.currency} exceeds the ${fromUnits(left)} ${t.currency} not yet reversed`]);
  }
  const reversed = t.reversed_units + units;
  const transfer: TransferState = {
    ...t,
    reversed_units: reversed,
    status: reversed === t.amount_units ? 'REVERSED' : 'SUCCEEDED',
    reason: cmd.reason ?? t.reason,
    transactions: [
      ...t.transactions,
      { code: cmd.code, type: 'SPLIT_TRANSFER_REVERSE', status: 'SUCCEEDED', amount_units: units, provider_transfer_id: cmd.code, provider_response_message: 'Reversal accepted', created_at: cmd.now, updated_at: cmd.now },
    ],
    updated_at: cmd.now,
  };
  return { transfer, events: [event('split_transfer_reverse.succeeded', 'transfer', t.id, t.account_id, { amount: fromUnits(units), status: transfer.status })] };
}

export function presentTransfer(t: TransferState): Transfer {
  return {
    id: t.id,
    recipient_id: t.recipient_id,
    amount: { currency: t.currency, value: fromUnits(t.amount_units) },
    status: t.status,
    reason: t.reason,
    description: t.description,
    merchant_reference: t.merchant_reference,
    metadata: t.metadata,
    provider: t.provider_id,
    provider_data: { id: t.provider_id, transfer_id: t.id, recipient_id: t.recipient_id, response_code: t.status, response_message: t.status === 'SUCCEEDED' || t.status === 'REVERSED' ? 'Transfer accepted' : `Transfer ${t.status.toLowerCase()}` },
    transactions: t.transactions.map((x) => ({
      code: x.code,
      type: x.type,
      status: x.status,
      provider_transfer_id: x.provider_transfer_id,
      provider_response_message: x.provider_response_message,
      provider_raw_response: JSON.stringify({ status: x.status, amount: fromUnits(x.amount_units) }),
      amount: { currency: t.currency, value: fromUnits(x.amount_units) },
      created_at: x.created_at,
      updated_at: x.updated_at,
    })),
    created_at: t.created_at,
    updated_at: t.updated_at,
    completed_at: t.completed_at,
  };
}
