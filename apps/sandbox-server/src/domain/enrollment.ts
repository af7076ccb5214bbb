import type { CustomerSession, EnrollDirectBody, EnrollInSessionBody, VerifyPayment } from '@switchyard/contract';
import { chooseOutcome, outcomeForCode, type TestOutcome } from './cards.js';
import { DomainError } from './errors.js';
import { event, type DomainEvent } from './events.js';
import { currencyOfCountry } from './money.js';
import { categoryOf, isEnrollable, type PaymentMethodState, type ScriptedOutcome } from './payment-method-state.js';
import type { StoredCard } from './payment-state.js';

/**
 * The enrollment state machine: READY_TO_ENROLL (session flow, waiting for the SDK step; direct
 * flow of a method that is no card, waiting for the payer on its redirect page), then ENROLLED or
 * DECLINED; ENROLLED → UNENROLLED when the same card is enrolled again. Pure: ids and
 * times come in, the method and the events to record come out, or a DomainError.
 */

/** A card as the sandbox reads it (app/card-input.ts): masked, the outcome its number forces, whether it expired. */
export interface ReadCard {
  card: StoredCard;
  /** What the number forces (test cards), or undefined. */
  forced: TestOutcome | undefined;
  expired: boolean;
}

export interface Enrollment {
  method: PaymentMethodState;
  events: DomainEvent[];
}

/** The code a card declines an enrollment with: a test number that declines or errs. */
const forcedDecline = (read: ReadCard | undefined): string | undefined =>
  read?.forced?.kind === 'declined' || read?.forced?.kind === 'error' ? read.forced.code : undefined;

/**
 * The outcome of an enrollment, ENROLLED or DECLINED, is one `enrollment.enroll` event: the
 * method's status tells which, and the ENROLL trigger delivers both (upstream's enrollment
 * events are enroll, unenroll, expiration and update; upstream's notes "Webhooks").
 */
const enrollmentEvent = (m: PaymentMethodState, data: Record<string, unknown>): DomainEvent => event('enrollment.enroll', 'payment_method', m.id, m.account_id, data);

/** §4.1's enrollable types only (checked before anything is read). */
export function requireEnrollable(type: string): void {
  if (!isEnrollable(type)) {
    throw new DomainError('INVALID_PARAMETERS', [`payment_method_type ${type} is not enrollable; enrollable: CARD, WALLET_CONNECT, SMART_PIX, PIX_BIOMETRICO and <BRAND>_ENROLLMENT, _ENROLLABLE, _WALLET, _TOKENBOX`]);
  }
}

/** A customer session takes enrollments until it expires. */
export function requireOpenSession(session: CustomerSession, nowMs: number): void {
  if (Date.parse(session.expires_at) <= nowMs) throw new DomainError('INVALID_STATE', [`customer session ${session.customer_session} expired at ${session.expires_at}`]);
}

/** §4.1: the method waits (READY_TO_ENROLL) for the customer to complete the SDK step. `newId` is called once the rules pass. */
export function enrollInSession(session: CustomerSession, body: EnrollInSessionBody, stamp: { newId: () => string; now: string; idempotencyKey: string }): Enrollment {
  if (session.account_id !== body.account_id) throw new DomainError('INVALID_PARAMETERS', [`customer session ${session.customer_session} belongs to another account_id`]);
  const method: PaymentMethodState = {
    id: stamp.newId(),
    flow: 'session',
    customer_id: session.customer_id,
    account_id: body.account_id,
    customer_session: session.customer_session,
    idempotency_key: stamp.idempotencyKey,
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
    created_at: stamp.now,
    updated_at: stamp.now,
  };
  return { method, events: [event('enrollment.create', 'payment_method', method.id, body.account_id, { status: method.status, customer_id: method.customer_id })] };
}

/**
 * The SDK step of a READY_TO_ENROLL method: a CARD method takes a card, the others none. An
 * expired card, or a test number that declines, ends DECLINED; otherwise the method is ENROLLED
 * with a new vaulted token (`newToken`, called only then).
 */
export function completeEnrollment(method: PaymentMethodState, read: ReadCard | undefined, stamp: { newToken: () => string; now: string }): PaymentMethodState {
  if (method.status !== 'READY_TO_ENROLL') throw new DomainError('INVALID_STATE', [`payment method ${method.id} is ${method.status}; only READY_TO_ENROLL can be completed`]);
  if (method.type === 'CARD' && !read) throw new DomainError('MISSING_PARAMETERS', ['card: is required to complete a CARD enrollment']);
  if (method.type !== 'CARD' && read) throw new DomainError('INVALID_PARAMETERS', [`card: a ${method.type} enrollment takes no card`]);
  const declinedBy = read?.expired ? 'EXPIRED_CARD' : forcedDecline(read);
  if (declinedBy) return { ...method, status: 'DECLINED', sub_status: declinedBy, card: read?.card ?? null, updated_at: stamp.now };
  return { ...method, status: 'ENROLLED', vaulted_token: stamp.newToken(), card: read?.card ?? null, card_outcome: read?.forced ?? null, updated_at: stamp.now };
}

/** The event of a completed enrollment: enrolled or declined. */
export const completionEvent = (m: PaymentMethodState): DomainEvent => enrollmentEvent(m, { status: m.status });

/** Whether enrolling the method replaces earlier enrollments (`replacedEnrollments`): an enrolled card does. */
export const replacesEnrollments = (enrolled: PaymentMethodState): boolean => enrolled.status === 'ENROLLED' && enrolled.card !== null;

/**
 * §3: a card enrolled in a session replaces the customer's earlier session enrollments of the same
 * card (same fingerprint), which become UNENROLLED.
 */
export function replacedEnrollments(methods: PaymentMethodState[], enrolled: PaymentMethodState, now: string): Enrollment[] {
  if (!replacesEnrollments(enrolled)) return [];
  const fingerprint = enrolled.card?.fingerprint;
  return methods
    .filter((m) => m.flow === 'session' && m.customer_id === enrolled.customer_id && m.status === 'ENROLLED' && m.card?.fingerprint === fingerprint)
    .map((m) => ({
      method: { ...m, status: 'UNENROLLED', updated_at: now },
      events: [event('enrollment.unenroll', 'payment_method', m.id, m.account_id, { replaced_by: enrolled.id })],
    }));
}

/** §4.3 takes no expired card. */
export function requireUnexpiredCard(read: ReadCard | undefined, card: EnrollDirectBody['card_data']): void {
  if (read?.expired) throw new DomainError('INVALID_PARAMETERS', [`card_data: the card expired (${card?.expiration_month}/${card?.expiration_year})`]);
}

/**
 * The zero-amount VERIFY payment of a direct card enrollment with `verify.vault_on_success`, as
 * upstream answers it (Enroll Payment Method (direct), "With
 * Verify": SUCCEEDED / VERIFIED, `merchant_order_id` VERIFY_CARD_<vaulted_token>); a test number
 * that declines or errs makes it DECLINED or ERROR with that code. The spec leaves its shape open
 * (§4.3 "Shapes of provider_data and verify: not shown"), so upstream's is used.
 */
export function verifyPayment(
  input: { accountId: string; country: string; vaultedToken: string; currency: string | undefined; metadata: VerifyPayment['metadata'] | undefined; forced: TestOutcome | undefined },
  stamp: { newId: () => string; now: string },
): VerifyPayment {
  const failed = input.forced?.kind === 'declined' || input.forced?.kind === 'error' ? input.forced : undefined;
  const status = failed ? (failed.kind === 'error' ? 'ERROR' : 'DECLINED') : 'SUCCEEDED';
  const reference = `VERIFY_CARD_${input.vaultedToken}`;
  const transactionId = stamp.newId();
  return {
    id: stamp.newId(),
    account_id: input.accountId,
    description: 'VERIFY CARD',
    country: input.country,
    status,
    sub_status: failed ? failed.code : 'VERIFIED',
    merchant_order_id: reference,
    created_at: stamp.now,
    updated_at: stamp.now,
    amount: { currency: input.currency ?? currencyOfCountry(input.country), value: 0, refunded: 0, captured: 0 },
    metadata: input.metadata ?? [],
    transactions: [
      {
        id: transactionId,
        type: 'VERIFY',
        status,
        response_code: failed ? failed.code : 'SUCCEEDED',
        response_message: failed ? failed.message : 'Transaction successful',
        category: 'CARD',
        merchant_reference: reference,
        provider_data: { id: 'SANDBOX', transaction_id: transactionId, status, response_message: failed ? failed.message : 'Transaction successful' },
        created_at: stamp.now,
        updated_at: stamp.now,
      },
    ],
  };
}

/**
 * §4.3: a CARD vaults at once; every enrollment gets its own vaulted_token, the card keeps one
 * fingerprint. With `verify.vault_on_success`, a CARD is verified by a VERIFY payment
 * (`verifyPayment`), and a test number that declines makes the method DECLINED. Any other type
 * (a bank account such as ACH_ENROLLMENT) waits for the payer: READY_TO_ENROLL with a
 * `redirect_url` (`redirectUrlOf` its id), as upstream answers ("ACH Enrollment" example).
 */
export function enrollDirect(
  customerId: string,
  body: EnrollDirectBody,
  read: ReadCard | undefined,
  stamp: { newId: () => string; now: string; idempotencyKey: string; redirectUrlOf: (methodId: string) => string },
): Enrollment {
  const waitsForPayer = body.type !== 'CARD';
  const verifyDeclined = body.verify?.vault_on_success ? forcedDecline(read) : undefined;
  const id = stamp.newId();
  const vaultedToken = stamp.newId();
  const verification =
    body.verify?.vault_on_success && body.type === 'CARD'
      ? verifyPayment(
          { accountId: body.account_id, country: body.country, vaultedToken, currency: body.verify.currency, metadata: body.verify.metadata, forced: read?.forced },
          stamp,
        )
      : null;
  const method: PaymentMethodState = {
    id,
    flow: 'direct',
    customer_id: customerId,
    account_id: body.account_id,
    customer_session: null,
    idempotency_key: stamp.idempotencyKey,
    type: body.type,
    category: categoryOf(body.type),
    country: body.country,
    status: waitsForPayer ? 'READY_TO_ENROLL' : verifyDeclined ? 'DECLINED' : 'ENROLLED',
    sub_status: verifyDeclined ?? null,
    vaulted_token: vaultedToken,
    card: read?.card ?? null,
    card_outcome: read?.forced ?? null,
    scripted_outcomes: [],
    callback_url: body.callback_url ?? null,
    parent_type: body.parent_type ?? null,
    redirect_url: waitsForPayer ? stamp.redirectUrlOf(id) : null,
    verify: {
      vault_on_success: body.verify?.vault_on_success ?? body.payment_method?.vault_on_success ?? false,
      currency: verification?.amount.currency ?? body.verify?.currency ?? null,
      payment: verification,
    },
    provider_data: body.provider_data ? { id: body.provider_data.id, token_source: body.provider_data.token_source ?? null } : null,
    created_at: stamp.now,
    updated_at: stamp.now,
  };
  const created = waitsForPayer
    ? event('enrollment.create', 'payment_method', id, body.account_id, { status: method.status, customer_id: customerId })
    : enrollmentEvent(method, { status: method.status, customer_id: customerId });
  return { method, events: [created] };
}

/**
 * The payer's answer on the redirect page of a direct enrollment that waits for them: the method
 * becomes ENROLLED (its vaulted_token can pay from then on) or DECLINED.
 */
export function settleDirectEnrollment(method: PaymentMethodState, outcome: 'ENROLLED' | 'DECLINED', now: string): Enrollment {
  if (method.flow !== 'direct' || method.status !== 'READY_TO_ENROLL') {
    throw new DomainError('INVALID_STATE', [`payment method ${method.id} is ${method.status}; only a direct READY_TO_ENROLL enrollment waits for the payer`]);
  }
  const next: PaymentMethodState = { ...method, status: outcome, sub_status: outcome === 'DECLINED' ? 'DECLINED_BY_PAYER' : null, updated_at: now };
  return { method: next, events: [completionEvent(next)] };
}

/** Only an ENROLLED method can pay. */
export function requirePayable(method: PaymentMethodState | undefined, vaultedToken: string): PaymentMethodState {
  if (!method) throw new DomainError('PAYMENT_METHOD_NOT_FOUND', [`no enrolled payment method has vaulted_token ${vaultedToken}`]);
  if (method.status !== 'ENROLLED') throw new DomainError('INVALID_STATE', [`the payment method ${vaultedToken} is ${method.status}; only an ENROLLED method can pay`]);
  return method;
}

/**
 * A vaulted method pays like its card would: a scripted outcome first (sandbox control API),
 * then what the enrolled test card forces, then the description. Returns the method with the
 * scripted outcome consumed (the same object when none was).
 */
export function chargeOutcome(method: PaymentMethodState, description: string): { outcome: TestOutcome; method: PaymentMethodState } {
  const [next, ...rest] = method.scripted_outcomes;
  const scripted = next === undefined ? undefined : outcomeForCode(next);
  const outcome = scripted ?? method.card_outcome ?? chooseOutcome(undefined, description);
  return { outcome, method: next === undefined ? method : { ...method, scripted_outcomes: rest } };
}

/** Scripts the next charges of an enrolled method (sandbox control API). */
export const withScriptedOutcomes = (method: PaymentMethodState, sequence: readonly ScriptedOutcome[]): PaymentMethodState => ({ ...method, scripted_outcomes: [...method.scripted_outcomes, ...sequence] });
