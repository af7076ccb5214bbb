import type {
  Customer,
  CustomerSession,
  DirectEnrolledPaymentMethod,
  EnrollDirectBody,
  EnrollInSessionBody,
  SessionEnrolledPaymentMethod,
} from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { event } from '../domain/events.js';
import { categoryOf, isEnrollable, type PaymentMethodState } from '../domain/payment-method-state.js';
import { presentDirectMethod, presentSessionMethod } from '../domain/payment-method-view.js';
import type { Tx } from '../store/types.js';
import { readCard, type CardInput } from './card-input.js';
import { isoNow, nowOf, recordEvents, requireAccount, type RequestContext } from './context.js';
import { loadEnrolledMethod } from './payments.js';

function payerOf(customer: Customer | undefined): SessionEnrolledPaymentMethod['customer_payer'] {
  if (!customer) return null;
  return {
    first_name: customer.first_name,
    last_name: customer.last_name,
    email: customer.email,
    gender: customer.gender,
    date_of_birth: customer.date_of_birth,
    document: customer.document,
    phone: customer.phone,
    billing_address: customer.billing_address,
  };
}

async function loadSession(ctx: RequestContext, tx: Tx, id: string): Promise<CustomerSession> {
  const session = await tx.get<CustomerSession>('customer_session', id);
  if (!session) throw new DomainError('CUSTOMER_SESSION_NOT_FOUND', [`customer session ${id} not found`]);
  if (Date.parse(session.expires_at) <= nowOf(ctx).getTime()) throw new DomainError('INVALID_STATE', [`customer session ${id} expired at ${session.expires_at}`]);
  return session;
}

/** §4.1: the method waits (READY_TO_ENROLL) for the customer to complete the SDK step. */
export async function enrollInSession(ctx: RequestContext, sessionId: string, body: EnrollInSessionBody, idempotencyKey: string): Promise<SessionEnrolledPaymentMethod> {
  requireAccount(ctx, body.account_id);
  if (!isEnrollable(body.payment_method_type)) {
    throw new DomainError('INVALID_PARAMETERS', [`payment_method_type ${body.payment_method_type} is not enrollable; enrollable: CARD, WALLET_CONNECT, SMART_PIX, PIX_BIOMETRICO and <BRAND>_ENROLLMENT, _ENROLLABLE, _WALLET, _TOKENBOX`]);
  }
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const session = await loadSession(ctx, tx, sessionId);
    if (session.account_id !== body.account_id) throw new DomainError('INVALID_PARAMETERS', [`customer session ${sessionId} belongs to another account_id`]);
    const now = isoNow(ctx);
    const method: PaymentMethodState = {
      id: ctx.ids.uuid(),
      flow: 'session',
      customer_id: session.customer_id,
      account_id: body.account_id,
      customer_session: sessionId,
      idempotency_key: idempotencyKey,
      type: body.payment_method_type,
      category: categoryOf(body.payment_method_type),
      country: body.country,
      status: 'READY_TO_ENROLL',
      sub_status: null,
      vaulted_token: null,
      card: null,
      card_outcome: null,
      scripted_outcomes: [],
      callback_url: session.callback_url,
      verify: { vault_on_success: body.verify?.vault_on_success ?? false, currency: body.verify?.currency ?? null },
      provider_data: null,
      created_at: now,
      updated_at: now,
    };
    await tx.put('payment_method', method.id, method);
    await recordEvents(ctx, tx, [event('enrollment.create', 'payment_method', method.id, body.account_id, { status: method.status, customer_id: method.customer_id })]);
    return presentSessionMethod(method, payerOf(await tx.get<Customer>('customer', session.customer_id)));
  });
}

/**
 * The SDK step (sandbox control API). A card that a test number declines ends DECLINED; an
 * enrolled card replaces the customer's earlier session enrollment of the same card (§3).
 */
export async function completeEnrollment(ctx: RequestContext, sessionId: string, methodId: string, input: { card?: CardInput }): Promise<SessionEnrolledPaymentMethod> {
  const read = input.card ? readCard(ctx, input.card, 'card') : undefined;
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const method = await tx.get<PaymentMethodState>('payment_method', methodId);
    if (!method || method.customer_session !== sessionId) throw new DomainError('PAYMENT_METHOD_NOT_FOUND', [`payment method ${methodId} not found in customer session ${sessionId}`]);
    if (method.status !== 'READY_TO_ENROLL') throw new DomainError('INVALID_STATE', [`payment method ${methodId} is ${method.status}; only READY_TO_ENROLL can be completed`]);
    if (method.type === 'CARD' && !read) throw new DomainError('MISSING_PARAMETERS', ['card: is required to complete a CARD enrollment']);
    if (method.type !== 'CARD' && read) throw new DomainError('INVALID_PARAMETERS', [`card: a ${method.type} enrollment takes no card`]);
    const now = isoNow(ctx);
    const declinedBy = read?.expired ? 'EXPIRED_CARD' : read?.forced?.kind === 'declined' || read?.forced?.kind === 'error' ? read.forced.code : undefined;
    const events = [];
    let next: PaymentMethodState;
    if (declinedBy) {
      next = { ...method, status: 'DECLINED', sub_status: declinedBy, card: read?.card ?? null, updated_at: now };
    } else {
      next = {
        ...method,
        status: 'ENROLLED',
        vaulted_token: ctx.ids.uuid(),
        card: read?.card ?? null,
        card_outcome: read?.forced ?? null,
        updated_at: now,
      };
      if (next.card) {
        for (const other of await tx.list<PaymentMethodState>('payment_method')) {
          const sameCard = other.flow === 'session' && other.customer_id === method.customer_id && other.status === 'ENROLLED' && other.card?.fingerprint === next.card.fingerprint;
          if (!sameCard) continue;
          await tx.put('payment_method', other.id, { ...other, status: 'UNENROLLED', updated_at: now }, other.vaulted_token ?? undefined);
          events.push(event('enrollment.unenroll', 'payment_method', other.id, other.account_id, { replaced_by: next.id }));
        }
      }
    }
    await tx.put('payment_method', next.id, next, next.vaulted_token ?? undefined);
    events.push(event(next.status === 'ENROLLED' ? 'enrollment.enroll' : 'enrollment.declined', 'payment_method', next.id, next.account_id, { status: next.status }));
    await recordEvents(ctx, tx, events);
    return presentSessionMethod(next, payerOf(await tx.get<Customer>('customer', next.customer_id)));
  });
}

/** §4.3: vaults at once; every enrollment gets its own vaulted_token, the card keeps one fingerprint. */
export async function enrollDirect(ctx: RequestContext, customerId: string, body: EnrollDirectBody, idempotencyKey: string): Promise<DirectEnrolledPaymentMethod> {
  requireAccount(ctx, body.account_id);
  const read = body.card_data ? readCard(ctx, body.card_data, 'card_data') : undefined;
  if (read?.expired) throw new DomainError('INVALID_PARAMETERS', [`card_data: the card expired (${body.card_data?.expiration_month}/${body.card_data?.expiration_year})`]);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    if (!(await tx.get('customer', customerId))) throw new DomainError('CUSTOMER_NOT_FOUND', [`customer ${customerId} not found`]);
    const now = isoNow(ctx);
    const verifyDeclined = body.verify?.vault_on_success && (read?.forced?.kind === 'declined' || read?.forced?.kind === 'error') ? read.forced.code : undefined;
    const method: PaymentMethodState = {
      id: ctx.ids.uuid(),
      flow: 'direct',
      customer_id: customerId,
      account_id: body.account_id,
      customer_session: null,
      idempotency_key: idempotencyKey,
      type: body.type,
      category: categoryOf(body.type),
      country: body.country,
      status: verifyDeclined ? 'DECLINED' : 'ENROLLED',
      sub_status: verifyDeclined ?? null,
      vaulted_token: ctx.ids.uuid(),
      card: read?.card ?? null,
      card_outcome: read?.forced ?? null,
      scripted_outcomes: [],
      callback_url: body.callback_url ?? null,
      verify: { vault_on_success: body.verify?.vault_on_success ?? false, currency: body.verify?.currency ?? null },
      provider_data: body.provider_data ? { id: body.provider_data.id, token_source: body.provider_data.token_source ?? null } : null,
      created_at: now,
      updated_at: now,
    };
    await tx.put('payment_method', method.id, method, method.vaulted_token ?? undefined);
    await recordEvents(ctx, tx, [event(method.status === 'ENROLLED' ? 'enrollment.enroll' : 'enrollment.declined', 'payment_method', method.id, body.account_id, { status: method.status, customer_id: customerId })]);
    return presentDirectMethod(method);
  });
}

/** Scripts the next charges of an enrolled method (sandbox control API). */
export async function scriptOutcomes(ctx: RequestContext, vaultedToken: string, sequence: string[]): Promise<{ vaulted_token: string; pending: string[] }> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const method = await loadEnrolledMethod(tx, vaultedToken);
    const next = { ...method, scripted_outcomes: [...method.scripted_outcomes, ...sequence] };
    await tx.put('payment_method', next.id, next, vaultedToken);
    return { vaulted_token: vaultedToken, pending: next.scripted_outcomes };
  });
}
