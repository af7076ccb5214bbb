import type { BankingAccount, BankingEntity, BankingOnboarding, CreateEntityBody, CreateOnboardingBody, UpdateAccountBody } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { event } from '../domain/events.js';
import { maskedEntity, openAccount } from '../domain/banking.js';
import {
  accountOpened,
  expireOnboarding,
  requireOpenOnboarding,
  settleOnboarding as settleOnboardingState,
  startOnboarding,
  type OnboardingChange,
} from '../domain/onboarding.js';
import { UniqueViolation, type Tx } from '../store/types.js';
import { asOf, isoNow, nowOf, recordEvents, requireAccount, type RequestContext } from './context.js';
import { yieldToEventLoop } from '../runtime/yield.js';

export async function createEntity(ctx: RequestContext, body: CreateEntityBody): Promise<BankingEntity> {
  requireAccount(ctx, body.account_id);
  const entity = maskedEntity(body, ctx.ids.token('ent_', 24), isoNow(ctx));
  try {
    await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
      await tx.create('banking_entity', entity.id, entity, `${body.account_id}:${body.merchant_entity_id}`);
      await recordEvents(ctx, tx, [event('banking.entity.created', 'banking_entity', entity.id, body.account_id, { national_entity: entity.national_entity })]);
    });
  } catch (error) {
    if (error instanceof UniqueViolation) throw new DomainError('DUPLICATE_ENTITY', [`an entity with merchant_entity_id ${body.merchant_entity_id} already exists for account ${body.account_id}`]);
    throw error;
  }
  return entity;
}

async function loadEntity(tx: Tx, entityId: string): Promise<BankingEntity> {
  const entity = await tx.get<BankingEntity>('banking_entity', entityId);
  if (!entity) throw new DomainError('ENTITY_NOT_FOUND', [`entity ${entityId} not found`]);
  return entity;
}

/** Saves an onboarding change and records its events. */
async function save(ctx: RequestContext, tx: Tx, change: OnboardingChange): Promise<void> {
  await tx.put('banking_onboarding', change.onboarding.id, change.onboarding);
  await recordEvents(ctx, tx, change.events);
}

/** The change, and when it opens the entity's account, the account opened and linked to it. */
async function withAccountIfOpened(ctx: RequestContext, tx: Tx, entity: BankingEntity, change: OnboardingChange & { opensAccount: boolean }): Promise<{ change: OnboardingChange; account: BankingAccount | null }> {
  if (!change.opensAccount) return { change, account: null };
  const account = await openAccountFor(ctx, tx, entity, change.onboarding);
  const opened = accountOpened(change.onboarding, account);
  return { change: { onboarding: opened.onboarding, events: [...change.events, ...opened.events] }, account };
}

/** §4.4 (domain/onboarding.ts): PENDING for the provider, or SUCCEEDED at once with its account when PREVIOUSLY_ONBOARDED. */
export async function createOnboarding(ctx: RequestContext, entityId: string, body: CreateOnboardingBody): Promise<BankingOnboarding> {
  requireAccount(ctx, body.account_id);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const entity = await loadEntity(tx, entityId);
    if (entity.account_id !== body.account_id) throw new DomainError('ENTITY_NOT_FOUND', [`entity ${entityId} not found for account ${body.account_id}`]);
    const started = startOnboarding(entityId, body, { id: ctx.ids.token('onb_', 24), providerEntityId: () => ctx.ids.token('prv_ent_', 16), now: nowOf(ctx) });
    const { change } = await withAccountIfOpened(ctx, tx, entity, started);
    await save(ctx, tx, change);
    return change.onboarding;
  });
}

async function openAccountFor(ctx: RequestContext, tx: Tx, entity: BankingEntity, onboarding: BankingOnboarding): Promise<BankingAccount> {
  const account = openAccount({
    id: ctx.ids.token('acct_', 31),
    entity,
    onboarding,
    accountNumber: ctx.ids.token('', 12).replace(/[a-z]/g, (c) => String(c.charCodeAt(0) % 10)),
    providerAccountId: ctx.ids.token('prv_acct_', 16),
    now: isoNow(ctx),
  });
  await tx.put('banking_account', account.id, account);
  return account;
}

async function loadOnboarding(tx: Tx, onboardingId: string): Promise<BankingOnboarding> {
  const onboarding = await tx.get<BankingOnboarding>('banking_onboarding', onboardingId);
  if (!onboarding) throw new DomainError('ONBOARDING_NOT_FOUND', [`onboarding ${onboardingId} not found`]);
  return onboarding;
}

export async function getOnboarding(ctx: RequestContext, entityId: string, onboardingId: string): Promise<BankingOnboarding> {
  await expireOnboardings(ctx);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const onboarding = await loadOnboarding(tx, onboardingId);
    if (onboarding.entity_id !== entityId) throw new DomainError('ONBOARDING_NOT_FOUND', [`onboarding ${onboardingId} not found for entity ${entityId}`]);
    return onboarding;
  });
}

/** The provider's decision (sandbox control API). SUCCEEDED opens the entity's banking account. */
export async function settleOnboarding(ctx: RequestContext, onboardingId: string, status: string): Promise<{ onboarding: BankingOnboarding; account: BankingAccount | null }> {
  await expireOnboardings(ctx);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const onboarding = await loadOnboarding(tx, onboardingId);
    requireOpenOnboarding(onboarding);
    const entity = await loadEntity(tx, onboarding.entity_id);
    const settled = settleOnboardingState(onboarding, status, entity.account_id, isoNow(ctx));
    const { change, account } = await withAccountIfOpened(ctx, tx, entity, settled);
    await save(ctx, tx, change);
    return { onboarding: change.onboarding, account };
  });
}

/** Onboardings expired per transaction. */
const EXPIRY_BATCH = 100;

/**
 * Open onboardings past their expiry become EXPIRED, stamped at their expiry (run when the clock
 * moves or one is read). Found through the due index, in batches, yielding between them.
 */
export async function expireOnboardings(ctx: RequestContext): Promise<void> {
  const nowMs = nowOf(ctx).getTime();
  for (;;) {
    const expired = await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
      const due = await tx.listDue<BankingOnboarding>('banking_onboarding', 'clock', nowMs, EXPIRY_BATCH);
      for (const o of due) {
        const at = asOf(ctx, Date.parse(o.expires_at));
        await save(at, tx, expireOnboarding(o, isoNow(at)));
      }
      return due.length;
    });
    if (expired < EXPIRY_BATCH) return;
    await yieldToEventLoop();
  }
}

/** §4.14: changes only the fields sent. */
export async function updateAccount(ctx: RequestContext, accountId: string, body: UpdateAccountBody): Promise<BankingAccount> {
  requireAccount(ctx, body.account_id);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const account = await tx.get<BankingAccount>('banking_account', accountId);
    if (!account || account.account_id !== body.account_id) throw new DomainError('ACCOUNT_NOT_FOUND', [`banking account ${accountId} not found`]);
    const next: BankingAccount = { ...account, ...(body.account_type ? { account_type: body.account_type } : {}), updated_at: isoNow(ctx) };
    await tx.put('banking_account', accountId, next);
    await recordEvents(ctx, tx, [event('banking.account.updated', 'banking_account', accountId, account.account_id, { account_type: next.account_type })]);
    return next;
  });
}
