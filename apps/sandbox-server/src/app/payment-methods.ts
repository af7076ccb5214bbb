import type {
  CustomerSession,
  DirectEnrolledPaymentMethod,
  EnrollDirectBody,
  EnrollInSessionBody,
  SessionEnrolledPaymentMethod,
} from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { requireCustomer } from './customers.js';
import {
  completeEnrollment as completeEnrollmentState,
  completionEvent,
  enrollDirect as enrollDirectState,
  enrollInSession as enrollInSessionState,
  replacedEnrollments,
  replacesEnrollments,
  requireEnrollable,
  requireOpenSession,
  requireUnexpiredCard,
  settleDirectEnrollment,
  withScriptedOutcomes,
  type Enrollment,
} from '../domain/enrollment.js';
import type { PaymentMethodState, ScriptedOutcome } from '../domain/payment-method-state.js';
import { presentDirectMethod, presentSessionMethod } from '../domain/payment-method-view.js';
import { payerOf } from '../domain/customer-view.js';
import type { Tx } from '../store/types.js';
import { readCard, type CardInput } from './card-input.js';
import { isoNow, nowOf, recordEvents, requireAccount, type RequestContext } from './context.js';
import { loadEnrolledMethod } from './enrolled-methods.js';

async function loadSession(ctx: RequestContext, tx: Tx, id: string): Promise<CustomerSession> {
  const session = await tx.get<CustomerSession>('customer_session', id);
  if (!session) throw new DomainError('CUSTOMER_SESSION_NOT_FOUND', [`customer session ${id} not found`]);
  requireOpenSession(session, nowOf(ctx).getTime());
  return session;
}

async function save(ctx: RequestContext, tx: Tx, enrollments: Enrollment[]): Promise<void> {
  for (const { method } of enrollments) await tx.put('payment_method', method.id, method, method.vaulted_token ?? undefined);
  await recordEvents(ctx, tx, enrollments.flatMap((e) => e.events));
}

/** §4.1: the method waits (READY_TO_ENROLL) for the customer to complete the SDK step. */
export async function enrollInSession(ctx: RequestContext, sessionId: string, body: EnrollInSessionBody, idempotencyKey: string): Promise<SessionEnrolledPaymentMethod> {
  requireAccount(ctx, body.account_id);
  requireEnrollable(body.payment_method_type);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const session = await loadSession(ctx, tx, sessionId);
    const enrollment = enrollInSessionState(session, body, { newId: () => ctx.ids.uuid(), now: isoNow(ctx), idempotencyKey });
    await save(ctx, tx, [enrollment]);
    return presentSessionMethod(enrollment.method, payerOf(await requireCustomer(tx, session.customer_id)));
  });
}

/**
 * The SDK step (sandbox control API). A card that a test number declines ends DECLINED; an
 * enrolled card replaces the customer's earlier session enrollment of the same card (§3).
 */
export async function completeEnrollment(ctx: RequestContext, sessionId: string, methodId: string, input: { card?: CardInput }): Promise<SessionEnrolledPaymentMethod> {
  const read = input.card ? readCard(ctx, input.card) : undefined;
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const method = await tx.get<PaymentMethodState>('payment_method', methodId);
    if (!method || method.customer_session !== sessionId) throw new DomainError('PAYMENT_METHOD_NOT_FOUND', [`payment method ${methodId} not found in customer session ${sessionId}`]);
    const now = isoNow(ctx);
    const next = completeEnrollmentState(method, read, { newToken: () => ctx.ids.uuid(), now });
    // Only an enrolled card replaces anything: the others never read every method of the merchant.
    // The customer's enrollments are a set no single record read holds: one enrollment at a time.
    if (replacesEnrollments(next)) await tx.lock(`enrollments:${next.customer_id}`);
    const replaced = replacesEnrollments(next) ? replacedEnrollments(await tx.list<PaymentMethodState>('payment_method'), next, now) : [];
    await save(ctx, tx, [...replaced, { method: next, events: [completionEvent(next)] }]);
    return presentSessionMethod(next, payerOf(await requireCustomer(tx, next.customer_id)));
  });
}

/** The sandbox page where the payer confirms a direct enrollment that waits for them (http/pages/hosted-enrollment.ts). */
export const enrollmentPageUrl = (ctx: RequestContext, methodId: string): string => `${ctx.baseUrl}/enrollments/${ctx.merchant.id}/${methodId}`;

/** §4.3: a card vaults at once, every enrollment with its own vaulted_token; other types wait for the payer on their page. */
export async function enrollDirect(ctx: RequestContext, customerId: string, body: EnrollDirectBody, idempotencyKey: string): Promise<DirectEnrolledPaymentMethod> {
  requireAccount(ctx, body.account_id);
  const read = body.card_data ? readCard(ctx, body.card_data) : undefined;
  requireUnexpiredCard(read, body.card_data);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    await requireCustomer(tx, customerId);
    const enrollment = enrollDirectState(customerId, body, read, {
      newId: () => ctx.ids.uuid(),
      now: isoNow(ctx),
      idempotencyKey,
      redirectUrlOf: (methodId) => enrollmentPageUrl(ctx, methodId),
    });
    await save(ctx, tx, [enrollment]);
    return presentDirectMethod(enrollment.method);
  });
}

/** A direct enrollment as its redirect page shows it; undefined when the merchant has no such method. */
export async function getDirectEnrollment(ctx: RequestContext, methodId: string): Promise<DirectEnrolledPaymentMethod | undefined> {
  const method = await ctx.store.withTransaction(ctx.merchant.id, (tx) => tx.get<PaymentMethodState>('payment_method', methodId));
  return method?.flow === 'direct' ? presentDirectMethod(method) : undefined;
}

/** The payer confirms (ENROLLED) or declines (DECLINED) a direct enrollment on its redirect page; the enroll webhook follows. */
export async function settleEnrollment(ctx: RequestContext, methodId: string, outcome: 'ENROLLED' | 'DECLINED'): Promise<DirectEnrolledPaymentMethod> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const method = await tx.get<PaymentMethodState>('payment_method', methodId);
    if (!method) throw new DomainError('PAYMENT_METHOD_NOT_FOUND', [`payment method ${methodId} not found`]);
    const settled = settleDirectEnrollment(method, outcome, isoNow(ctx));
    await save(ctx, tx, [settled]);
    return presentDirectMethod(settled.method);
  });
}

/** Scripts the next charges of an enrolled method (sandbox control API). */
export async function scriptOutcomes(ctx: RequestContext, vaultedToken: string, sequence: readonly ScriptedOutcome[]): Promise<{ vaulted_token: string; pending: ScriptedOutcome[] }> {
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    const next = withScriptedOutcomes(await loadEnrolledMethod(tx, vaultedToken), sequence);
    await tx.put('payment_method', next.id, next, vaultedToken);
    return { vaulted_token: vaultedToken, pending: next.scripted_outcomes };
  });
}
