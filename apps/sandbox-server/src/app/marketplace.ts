import { RecipientBankOut, type CreateRecipientBody, type CreateTransferBody, type Recipient, type ReverseTransferBody, type Transfer } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { event } from '../domain/events.js';
import { toUnits } from '../domain/money.js';
import { credit, debit, requireFunds } from '../domain/balances.js';
import { checkTransfer, presentTransfer, providersOf, reverse, transferOutcome, type TransferState } from '../domain/transfers.js';
import { loadBalance, loadRecipient, saveBalance } from './balances.js';
import { isoNow, recordEvents, requireAccount, type RequestContext } from './context.js';
import { ifSent } from '../domain/absent-values.js';
import { presentLegalRepresentative, type StoredRecipient } from '../domain/recipient-view.js';

const orNull = <T>(value: T | undefined): T | null => value ?? null;
/** A string upstream types as one is `""`, never null, when not sent (docs/fidelity.md). */
const orEmpty = (value: string | undefined): string => value ?? '';

/** §4.7. Onboardings sent as PREVIOUSLY_ONBOARDED are done; the others wait for the provider (PENDING). */
export async function createRecipient(ctx: RequestContext, body: CreateRecipientBody): Promise<Recipient> {
  requireAccount(ctx, body.account_id);
  const now = isoNow(ctx);
  const recipient: Recipient = {
    id: ctx.ids.uuid(),
    account_id: body.account_id,
    merchant_recipient_id: body.merchant_recipient_id,
    national_entity: body.national_entity,
    entity_type: orEmpty(body.entity_type),
    first_name: body.first_name,
    last_name: body.last_name,
    legal_name: orNull(body.legal_name),
    email: orEmpty(body.email),
    website: orEmpty(body.website),
    industry: orEmpty(body.industry),
    merchant_category_code: orEmpty(body.merchant_category_code),
    date_of_birth: orEmpty(body.date_of_birth),
    country: body.country,
    // Objects not sent are left out (docs/fidelity.md, "Absent values").
    ...ifSent('document', body.document),
    ...ifSent('phone', body.phone),
    ...ifSent('address', body.address),
    legal_representatives: (body.legal_representatives ?? []).map(presentLegalRepresentative),
    // As answered: the bank's fields of RecipientBankOut (parsing strips `payout_schedule`, a request-only field).
    ...(body.withdrawal_methods ? { withdrawal_methods: { bank: RecipientBankOut.parse(body.withdrawal_methods.bank) } } : {}),
    // Documents are kept by name and category; their content is not echoed back.
    documentation: (body.documentation ?? []).map(({ file_name, content_type, content_category }) => ({ file_name, content_type, content_category })),
    onboardings: (body.onboardings ?? []).map((o) => {
      const previously = o.type === 'PREVIOUSLY_ONBOARDED';
      return {
        id: ctx.ids.uuid(),
        type: previously ? 'PREVIOUSLY_ONBOARDED' : 'TWO_STEP_ONBOARDING',
        workflow: o.workflow,
        description: orEmpty(o.description),
        status: previously ? 'SUCCEEDED' : 'PENDING',
        callback_url: orEmpty(o.callback_url),
        provider: {
          id: o.provider.id,
          connection_id: o.provider.connection_id,
          recipient_id: o.provider.recipient_id ?? null,
          recipient_type: o.provider.recipient_type ?? null,
          redirect_url: null,
          onboarding_url: null,
          legal_entity: null,
          balance_account_id: null,
          legal_entity_id: null,
        },
        documentation: (o.documentation ?? []).map(({ file_name, content_type, content_category }) => ({ file_name, content_type, content_category })),
        requirements: [],
        // Left out when not sent: upstream types them objects and marks them optional.
        ...(o.withdrawal_methods?.[0] ? { withdrawal_methods: { bank: RecipientBankOut.parse(o.withdrawal_methods[0].bank) } } : {}),
        created_at: now,
        updated_at: now,
      };
    }),
    // Left out when not sent, as upstream's answers leave it out (Create Recipient).
    ...(body.split_configuration ? { split_configuration: body.split_configuration } : {}),
    created_at: now,
    updated_at: now,
  };
  await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    await tx.put('recipient', recipient.id, recipient);
    await recordEvents(ctx, tx, [event('recipient.created', 'recipient', recipient.id, body.account_id, { onboardings: recipient.onboardings.length })]);
  });
  return recipient;
}

/**
 * A standalone transfer: the recipient, its provider, onboarding and currency are checked
 * (`checkTransfer`), then its balance; a SUCCEEDED transfer takes its amount from the balance, a
 * DECLINED or ERROR one (sandbox test data in `description`) moves nothing.
 */
export async function createTransfer(ctx: RequestContext, body: CreateTransferBody): Promise<Transfer> {
  requireAccount(ctx, body.account_id);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const recipient = await loadRecipient(tx, body.recipient_id, body.account_id);
    // The account's connections are only read when the recipient's own onboardings do not name the provider.
    const ownProviders = new Set(recipient.onboardings.map((o) => o.provider.id));
    const accountProviders = ownProviders.has(body.provider_id) ? ownProviders : providersOf(await tx.list<StoredRecipient>('recipient'), body.account_id);
    checkTransfer(recipient, body.provider_id, body.amount.currency, accountProviders);
    const units = toUnits(body.amount.value);
    const balance = await loadBalance(tx, recipient);
    requireFunds(balance, body.amount.currency, units);
    const now = isoNow(ctx);
    const status = transferOutcome(body.description);
    const id = ctx.ids.uuid();
    const transfer: TransferState = {
      id,
      account_id: body.account_id,
      recipient_id: body.recipient_id,
      provider_id: body.provider_id,
      currency: body.amount.currency,
      amount_units: units,
      reversed_units: 0,
      status,
      reason: null,
      description: body.description ?? null,
      merchant_reference: body.merchant_reference ?? null,
      metadata: body.metadata ?? [],
      transactions: [{ code: ctx.ids.uuid(), type: 'SPLIT_TRANSFER', status, amount_units: units, provider_transfer_id: `prv_${id.slice(0, 8)}`, provider_response_message: status === 'SUCCEEDED' ? 'Transfer accepted' : `Transfer ${status.toLowerCase()}`, created_at: now, updated_at: now }],
      created_at: now,
      updated_at: now,
      completed_at: status === 'SUCCEEDED' ? now : null,
    };
    if (status === 'SUCCEEDED') await saveBalance(tx, debit(balance, body.amount.currency, units));
    await tx.put('transfer', id, transfer);
    await recordEvents(ctx, tx, [event(`split_transfer.${status === 'SUCCEEDED' ? 'succeeded' : 'failed'}`, 'transfer', id, body.account_id, { status })]);
    return presentTransfer(transfer);
  });
}

export async function reverseTransfer(ctx: RequestContext, transferId: string, body: ReverseTransferBody): Promise<Transfer> {
  requireAccount(ctx, body.account_id);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const transfer = await tx.get<TransferState>('transfer', transferId);
    if (!transfer || transfer.account_id !== body.account_id) throw new DomainError('TRANSFER_NOT_FOUND', [`transfer ${transferId} not found`]);
    const result = reverse(transfer, {
      amountUnits: body.amount ? toUnits(body.amount.value) : undefined,
      currency: body.amount?.currency,
      reason: body.reason ?? null,
      description: body.description ?? null,
      merchantReference: body.merchant_reference ?? null,
      code: ctx.ids.uuid(),
      now: isoNow(ctx),
    });
    // The reversed funds go back to what the marketplace holds for the recipient.
    const recipient = { id: transfer.recipient_id, account_id: transfer.account_id };
    const back = result.transfer.reversed_units - transfer.reversed_units;
    await saveBalance(tx, credit(await loadBalance(tx, recipient), transfer.currency, back));
    await tx.put('transfer', transferId, result.transfer);
    await recordEvents(ctx, tx, result.events);
    return presentTransfer(result.transfer);
  });
}
