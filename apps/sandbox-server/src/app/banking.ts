import type { BankingAccount, BankingEntity, BankingOnboarding, CreateEntityBody, CreateOnboardingBody, UpdateAccountBody } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { event } from '../domain/events.js';
import { isOnboardingFinal, maskedEntity, ONBOARDING_TTL_MS, openAccount } from '../domain/banking.js';
import { UniqueViolation, type Tx } from '../store/types.js';
import { asOf, isoNow, nowOf, recordEvents, requireAccount, type RequestContext } from './context.js';
import { yieldToEventLoop } from '../runtime/yield.js';

export async function createEntity(ctx: RequestContext, body: CreateEntityBody): Promise<BankingEntity> {
  requireAccount(ctx, body.account_id);
  const entity = maskedEntity(body, ctx.ids.token('ent_', 24), isoNow(ctx));
  try {
    await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
      await tx.put('banking_entity', entity.id, entity, `${body.account_id}:${body.merchant_entity_id}`);
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

/**
 * §4.4. ONE_STEP submits everything and waits for the provider (PENDING, 30 days to decide);
 * PREVIOUSLY_ONBOARDED records an onboarding that already happened elsewhere: it succeeds at once
 * and opens the account, without contacting the provider.
 */
export async function createOnboarding(ctx: RequestContext, entityId: string, body: CreateOnboardingBody): Promise<BankingOnboarding> {
  requireAccount(ctx, body.account_id);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const entity = await loadEntity(tx, entityId);
    if (entity.account_id !== body.account_id) throw new DomainError('ENTITY_NOT_FOUND', [`entity ${entityId} not found for account ${body.account_id}`]);
    const now = nowOf(ctx);
    const previously = body.onboarding_type === 'PREVIOUSLY_ONBOARDED';
    const onboarding: BankingOnboarding = {
      id: ctx.ids.token('onb_', 24),
      entity_id: entityId,
      service_account_id: null,
      service_connection_id: body.service_connection_id,
      provider: { entity_id: previously ? null : ctx.ids.token('prv_ent_', 16), status: previously ? 'NOT_CONTACTED' : 'PENDING' },
      onboarding_type: body.onboarding_type,
      status: previously ? 'SUCCEEDED' : 'PENDING',
      requirements: [],
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      expires_at: previously ? null : new Date(now.getTime() + ONBOARDING_TTL_MS).toISOString(),
    };
    const events = [event('banking.onboarding.created', 'banking_onboarding', onboarding.id, body.account_id, { status: onboarding.status })];
    if (!previously) events.push(event('banking.onboarding.pending', 'banking_onboarding', onboarding.id, body.account_id, { status: onboarding.status }));
    let saved = onboarding;
    if (previously) {
      const account = await openAccountFor(ctx, tx, entity, onboarding);
      saved = { ...onboarding, service_account_id: account.id };
      events.push(event('banking.account.created', 'banking_account', account.id, entity.account_id, { onboarding_id: onboarding.id }));
    }
    await tx.put('banking_onboarding', saved.id, saved);
    await recordEvents(ctx, tx, events);
    return saved;
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
    if (isOnboardingFinal(onboarding)) throw new DomainError('INVALID_STATE', [`onboarding ${onboardingId} is ${onboarding.status} and can no longer change`]);
    const now = isoNow(ctx);
    let next: BankingOnboarding = { ...onboarding, status, provider: { ...onboarding.provider, status }, updated_at: now };
    let account: BankingAccount | null = null;
    const entity = await loadEntity(tx, onboarding.entity_id);
    const events = [event(`banking.onboarding.${status.toLowerCase()}`, 'banking_onboarding', onboarding.id, entity.account_id, { status })];
    if (status === 'SUCCEEDED') {
      account = await openAccountFor(ctx, tx, entity, next);
      next = { ...next, service_account_id: account.id, expires_at: null };
      events.push(event('banking.account.created', 'banking_account', account.id, entity.account_id, { onboarding_id: onboarding.id }));
    }
    if (status === 'PENDING_ADDITIONAL_DOCUMENTATION') {
      next = { ...next, requirements: [{ field: 'documentation', message: 'The provider asks for an additional identity document', status: 'PENDING' }] };
    }
    await tx.put('banking_onboarding', next.id, next);
    await recordEvents(ctx, tx, events);
    return { onboarding: next, account };
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
        const at = asOf(ctx, Date.parse(o.expires_at as string));
        await tx.put('banking_onboarding', o.id, { ...o, status: 'EXPIRED', provider: { ...o.provider, status: 'EXPIRED' }, updated_at: isoNow(at) });
        await recordEvents(at, tx, [event('banking.onboarding.expired', 'banking_onboarding', o.id, null, { status: 'EXPIRED' })]);
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
