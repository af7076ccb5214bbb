import type { TestOutcome } from './cards.js';
import { DomainError } from './errors.js';
import { event, type DomainEvent } from './events.js';
import { IN_FLIGHT_TIMEOUT_MS } from './idempotency.js';
import { fromUnits } from './money.js';
import type { PaymentState, TransactionState } from './payment-state.js';

/**
 * Payment state machine. Every function is pure: it takes the current state and a command and
 * returns the next state, the transaction it produced and the events to record, or throws an
 * DomainError. HTTP and storage live elsewhere.
 */

export interface Transition {
  payment: PaymentState;
  transaction: TransactionState;
  events: DomainEvent[];
}

interface Stamp {
  now: string;
  transactionId: string;
}

function transaction(
  stamp: Stamp,
  type: TransactionState['type'],
  status: TransactionState['status'],
  amountUnits: number,
  extra: Partial<Pick<TransactionState, 'response_code' | 'response_message' | 'reason' | 'description' | 'merchant_reference'>> = {},
): TransactionState {
  const succeeded = status === 'SUCCEEDED';
  return {
    id: stamp.transactionId,
    type,
    status,
    amount_units: amountUnits,
    response_code: extra.response_code ?? (succeeded ? 'SUCCEEDED' : status),
    response_message: extra.response_message ?? (succeeded ? 'Transaction successful' : status.toLowerCase()),
    reason: extra.reason ?? null,
    description: extra.description ?? null,
    merchant_reference: extra.merchant_reference ?? null,
    created_at: stamp.now,
    updated_at: stamp.now,
  };
}

const eventType: Record<TransactionState['type'], string> = {
  PURCHASE: 'payment.purchase',
  AUTHORIZE: 'payment.authorize',
  CAPTURE: 'payment.capture',
  REFUND: 'payment.refund',
  CANCEL: 'payment.cancel',
  CHARGEBACK: 'payment.chargeback',
};

export function paymentEvent(type: string, payment: PaymentState, tx: TransactionState): DomainEvent {
  return event(type, 'payment', payment.id, payment.account_id, { payment_id: payment.id, transaction_id: tx.id, status: payment.status, sub_status: payment.sub_status });
}

function withTransaction(payment: PaymentState, tx: TransactionState, changes: Partial<PaymentState>, now: string): PaymentState {
  return { ...payment, ...changes, transactions: [...payment.transactions, tx], updated_at: now };
}

const money = (units: number, currency: string) => `${fromUnits(units)} ${currency}`;

/** The first attempt of a payment: the outcome decides status, sub_status and the transaction. */
export function createPayment(draft: PaymentState, outcome: TestOutcome, stamp: Stamp): Transition {
  const capture = draft.payment_method.capture;
  const type = capture ? 'PURCHASE' : 'AUTHORIZE';
  const amount = draft.amount_units;
  let tx: TransactionState;
  let changes: Partial<PaymentState>;
  switch (outcome.kind) {
    case 'approved':
      tx = transaction(stamp, type, 'SUCCEEDED', amount);
      changes = capture
        ? { status: 'SUCCEEDED', sub_status: 'APPROVED', authorized_units: amount, captured_units: amount }
        : { status: 'PENDING', sub_status: 'AUTHORIZED', authorized_units: amount, captured_units: 0 };
      break;
    case 'challenge':
      tx = transaction(stamp, type, 'PENDING', amount, { response_code: 'CHALLENGE_REQUIRED', response_message: '3DS challenge required' });
      changes = { status: 'PENDING', sub_status: 'WAITING_ADDITIONAL_STEP' };
      break;
    case 'declined':
      tx = transaction(stamp, type, 'DECLINED', amount, { response_code: outcome.code, response_message: outcome.message });
      changes = { status: 'DECLINED', sub_status: 'DECLINED' };
      break;
    case 'error':
      tx = transaction(stamp, type, 'ERROR', amount, { response_code: outcome.code, response_message: outcome.message });
      changes = { status: 'ERROR', sub_status: 'ERROR' };
      break;
  }
  const payment = { ...draft, ...changes, transactions: [tx], updated_at: stamp.now };
  return { payment, transaction: tx, events: [paymentEvent(eventType[type], payment, tx)] };
}

function findTransaction(payment: PaymentState, transactionId: string): TransactionState {
  const tx = payment.transactions.find((t) => t.id === transactionId);
  if (!tx) throw new DomainError('TRANSACTION_NOT_FOUND', [`transaction ${transactionId} does not belong to payment ${payment.id}`]);
  return tx;
}

function checkCurrency(payment: PaymentState, currency: string | undefined): void {
  if (currency !== undefined && currency !== payment.currency) {
    throw new DomainError('INVALID_AMOUNT', [`amount.currency ${currency} does not match the payment currency ${payment.currency}`]);
  }
}

/** What a capture names: the authorization, the amount (the whole authorization for a full capture) and why. */
export interface CaptureCommand {
  transactionId: string;
  amountUnits: number;
  currency: string;
  merchantReference: string;
  reason: string;
}

/** Captures an authorization, fully (the authorized amount) or partially (less). */
export function capture(payment: PaymentState, cmd: CaptureCommand, stamp: Stamp): Transition {
  const auth = findTransaction(payment, cmd.transactionId);
  if (auth.type !== 'AUTHORIZE' || auth.status !== 'SUCCEEDED') {
    throw new DomainError('INVALID_TRANSACTION', [`transaction ${auth.id} is not a successful authorization`]);
  }
  if (payment.status !== 'PENDING' || payment.sub_status !== 'AUTHORIZED') {
    throw new DomainError('INVALID_STATE', [`payment ${payment.id} is ${payment.status}/${payment.sub_status}; only an AUTHORIZED payment can be captured`]);
  }
  checkCurrency(payment, cmd.currency);
  const units = cmd.amountUnits;
  if (units > payment.authorized_units) {
    throw new DomainError('INVALID_AMOUNT', [`capture of ${money(units, payment.currency)} exceeds the authorized ${money(payment.authorized_units, payment.currency)}`]);
  }
  const tx = transaction(stamp, 'CAPTURE', 'SUCCEEDED', units, { merchant_reference: cmd.merchantReference, reason: cmd.reason });
  const next = withTransaction(
    payment,
    tx,
    { status: 'SUCCEEDED', sub_status: units === payment.authorized_units ? 'CAPTURED' : 'PARTIALLY_CAPTURED', captured_units: units },
    stamp.now,
  );
  return { payment: next, transaction: tx, events: [paymentEvent('payment.capture', next, tx)] };
}

const refundableUnits = (p: PaymentState) => p.captured_units - p.refunded_units - p.charged_back_units;

export interface RefundCommand {
  transactionId: string;
  amountUnits?: number;
  currency?: string;
  reason: string | null;
  description: string | null;
  merchantReference: string | null;
}

/**
 * A refund whose second step never ran (the process died between the two) would block every
 * later refund. After IN_FLIGHT_TIMEOUT_MS, the time after which any request counts as lost, it is
 * closed as ERROR, and nothing was refunded.
 */
export function abandonLostRefund(payment: PaymentState, now: string): PaymentState {
  const pending = payment.refund_in_progress;
  if (!pending) return payment;
  const tx = payment.transactions.find((t) => t.id === pending.transaction_id);
  if (tx && Date.parse(now) - Date.parse(tx.created_at) < IN_FLIGHT_TIMEOUT_MS) return payment;
  return {
    ...payment,
    refund_in_progress: null,
    transactions: payment.transactions.map((t) =>
      t.id === pending.transaction_id ? { ...t, status: 'ERROR' as const, response_code: 'ERROR', response_message: 'The provider never confirmed this refund', updated_at: now } : t,
    ),
  };
}

/**
 * Starts a refund: checks every rule and records a PENDING refund transaction. Until it is
 * finished no other refund may start, so two refunds can never both spend the same money.
 */
export function startRefund(given: PaymentState, cmd: RefundCommand, stamp: Stamp): Transition {
  const payment = abandonLostRefund(given, stamp.now);
  const charge = findTransaction(payment, cmd.transactionId);
  if (!['PURCHASE', 'CAPTURE'].includes(charge.type) || charge.status !== 'SUCCEEDED') {
    throw new DomainError('INVALID_TRANSACTION', [`transaction ${charge.id} is a ${charge.status} ${charge.type}; only a captured charge can be refunded`]);
  }
  if (payment.refund_in_progress) {
    throw new DomainError('INVALID_STATE', [`a refund (${payment.refund_in_progress.transaction_id}) is already in progress for payment ${payment.id}`]);
  }
  if (payment.dispute) {
    throw new DomainError('CHARGEBACK_IN_PROCESS', [`payment ${payment.id} has a chargeback in process; it cannot be refunded until the dispute is resolved`]);
  }
  const refundable = refundableUnits(payment);
  if (payment.status !== 'SUCCEEDED' || refundable <= 0) {
    throw new DomainError('INVALID_STATE', [`payment ${payment.id} is ${payment.status}/${payment.sub_status}; nothing is left to refund`]);
  }
  checkCurrency(payment, cmd.currency);
  const units = cmd.amountUnits ?? refundable;
  if (units > refundable) {
    throw new DomainError('INVALID_AMOUNT', [`refund of ${money(units, payment.currency)} exceeds the refundable ${money(refundable, payment.currency)}`]);
  }
  const tx = transaction(stamp, 'REFUND', 'PENDING', units, {
    reason: cmd.reason,
    description: cmd.description,
    merchant_reference: cmd.merchantReference,
    response_code: 'PENDING',
    response_message: 'Refund in progress',
  });
  const next = withTransaction(payment, tx, { refund_in_progress: { transaction_id: tx.id, amount_units: units } }, stamp.now);
  return { payment: next, transaction: tx, events: [] };
}

/** Completes the refund started by `startRefund`. */
export function finishRefund(payment: PaymentState, now: string): Transition {
  const pending = payment.refund_in_progress;
  if (!pending) throw new DomainError('INTERNAL_ERROR', ['no refund in progress']);
  const refunded = payment.refunded_units + pending.amount_units;
  const full = refunded === payment.captured_units;
  const transactions = payment.transactions.map((t) =>
    t.id === pending.transaction_id
      ? { ...t, status: 'SUCCEEDED' as const, response_code: 'SUCCEEDED', response_message: 'Transaction successful', updated_at: now }
      : t,
  );
  const next: PaymentState = {
    ...payment,
    transactions,
    refunded_units: refunded,
    status: full ? 'REFUNDED' : 'SUCCEEDED',
    sub_status: full ? 'REFUNDED' : 'PARTIALLY_REFUNDED',
    refund_in_progress: null,
    updated_at: now,
  };
  const tx = transactions.find((t) => t.id === pending.transaction_id) as TransactionState;
  return { payment: next, transaction: tx, events: [paymentEvent('payment.refund', next, tx)] };
}

/** Cancels a payment that was authorized (or is waiting for 3DS) and not captured. */
export function cancel(payment: PaymentState, cmd: { reason: string; description: string | null; merchantReference: string }, stamp: Stamp): Transition {
  const tx = transaction(stamp, 'CANCEL', 'SUCCEEDED', payment.authorized_units || payment.amount_units, {
    reason: cmd.reason,
    description: cmd.description,
    merchant_reference: cmd.merchantReference,
  });
  const next = withTransaction(payment, tx, { status: 'CANCELED', sub_status: 'CANCELED' }, stamp.now);
  return { payment: next, transaction: tx, events: [paymentEvent('payment.cancel', next, tx)] };
}

/**
 * True when cancel-or-refund cancels (nothing captured yet) rather than refunds. A payment that
 * waits for its payer (READY_TO_PAY: a PIX code, a voucher) is cancelled too: nothing was paid.
 */
export function isCancellable(payment: PaymentState): boolean {
  return (payment.status === 'PENDING' && ['AUTHORIZED', 'WAITING_ADDITIONAL_STEP'].includes(payment.sub_status)) || payment.status === 'READY_TO_PAY';
}

/** The charge a refund applies to: the capture of an authorization, or the purchase. */
export function capturedCharge(payment: PaymentState): TransactionState | undefined {
  return [...payment.transactions].reverse().find((t) => (t.type === 'CAPTURE' || t.type === 'PURCHASE') && t.status === 'SUCCEEDED');
}

/** A chargeback received from the issuer (sandbox control API). */
export function receiveChargeback(given: PaymentState, cmd: { amountUnits?: number; reason: string | null }, stamp: Stamp): Transition {
  const payment = abandonLostRefund(given, stamp.now);
  if (payment.dispute) throw new DomainError('CHARGEBACK_IN_PROCESS', [`payment ${payment.id} already has a chargeback in process`]);
  if (payment.refund_in_progress) throw new DomainError('INVALID_STATE', [`a refund is in progress for payment ${payment.id}`]);
  const chargeable = refundableUnits(payment);
  if (payment.status !== 'SUCCEEDED' || chargeable <= 0) {
    throw new DomainError('INVALID_STATE', [`payment ${payment.id} is ${payment.status}/${payment.sub_status}; only a captured payment with funds left can be charged back`]);
  }
  const units = cmd.amountUnits ?? chargeable;
  if (units > chargeable) {
    throw new DomainError('INVALID_AMOUNT', [`chargeback of ${money(units, payment.currency)} exceeds the ${money(chargeable, payment.currency)} still captured`]);
  }
  const tx = transaction(stamp, 'CHARGEBACK', 'CREATED', units, { reason: cmd.reason, response_code: 'CHARGEBACK', response_message: 'Chargeback received' });
  const next = withTransaction(
    payment,
    tx,
    {
      status: 'IN_DISPUTE',
      sub_status: 'RECEIVED',
      dispute: { chargeback_transaction_id: tx.id, previous_status: payment.status, previous_sub_status: payment.sub_status, evidence_count: 0 },
    },
    stamp.now,
  );
  return { payment: next, transaction: tx, events: [paymentEvent('payment.chargeback', next, tx)] };
}

/** §4.9: evidence against the chargeback moves the payment to review. */
export function submitDispute(payment: PaymentState, cmd: { transactionId: string; evidenceCount: number }, now: string): Transition {
  const tx = findTransaction(payment, cmd.transactionId);
  if (tx.type !== 'CHARGEBACK') throw new DomainError('INVALID_TRANSACTION', [`transaction ${tx.id} is a ${tx.type}; only a chargeback can be disputed`]);
  if (!payment.dispute || payment.dispute.chargeback_transaction_id !== tx.id) {
    throw new DomainError('INVALID_STATE', [`the chargeback ${tx.id} is ${tx.status}; its dispute is closed`]);
  }
  if (payment.sub_status === 'PENDING_REVIEW') {
    throw new DomainError('INVALID_STATE', [`evidence for chargeback ${tx.id} was already submitted and is under review`]);
  }
  const next: PaymentState = {
    ...payment,
    status: 'IN_DISPUTE',
    sub_status: 'PENDING_REVIEW',
    dispute: { ...payment.dispute, evidence_count: cmd.evidenceCount },
    updated_at: now,
  };
  return { payment: next, transaction: tx, events: [paymentEvent('payment.dispute', next, tx)] };
}

/** The issuer's decision on a dispute (sandbox control API). */
export function resolveDispute(payment: PaymentState, outcome: 'WON' | 'LOST', now: string): Transition {
  const dispute = payment.dispute;
  if (!dispute) throw new DomainError('INVALID_STATE', [`payment ${payment.id} has no open dispute`]);
  const transactions = payment.transactions.map((t) =>
    t.id === dispute.chargeback_transaction_id ? { ...t, status: outcome, response_code: outcome, response_message: `Dispute ${outcome.toLowerCase()}`, updated_at: now } : t,
  );
  const tx = transactions.find((t) => t.id === dispute.chargeback_transaction_id) as TransactionState;
  let changes: Partial<PaymentState>;
  if (outcome === 'WON') {
    changes = { status: dispute.previous_status, sub_status: dispute.previous_sub_status };
  } else {
    const chargedBack = payment.charged_back_units + tx.amount_units;
    const left = payment.captured_units - payment.refunded_units - chargedBack;
    changes = {
      charged_back_units: chargedBack,
      status: left === 0 ? 'CHARGEBACK' : 'SUCCEEDED',
      sub_status: left === 0 ? 'LOST' : 'PARTIALLY_CHARGEBACKED',
    };
  }
  const next: PaymentState = { ...payment, ...changes, transactions, dispute: null, updated_at: now };
  return { payment: next, transaction: tx, events: [paymentEvent(`payment.chargeback.${outcome.toLowerCase()}`, next, tx)] };
}

/** Whether a payment waits for the payer to answer a 3-D Secure challenge (a challenge test card). */
export const isAwaitingChallenge = (p: PaymentState): boolean =>
  p.status === 'PENDING' && p.sub_status === 'WAITING_ADDITIONAL_STEP' && p.payment_method.card?.three_d_secure === 'challenge';

/**
 * The payer's answer to the issuer's 3-D Secure challenge: authenticated, the pending purchase
 * (or authorization) goes through as an approved card would; not authenticated, it is declined.
 */
export function completeChallenge(payment: PaymentState, authenticated: boolean, now: string): Transition {
  const card = payment.payment_method.card;
  const pending = payment.transactions.find((t) => t.status === 'PENDING' && t.response_code === 'CHALLENGE_REQUIRED');
  if (!isAwaitingChallenge(payment) || !card || !pending) {
    throw new DomainError('INVALID_STATE', [`payment ${payment.id} is ${payment.status}/${payment.sub_status}; it waits for no 3-D Secure challenge`]);
  }
  const capture = payment.payment_method.capture;
  const amount = payment.amount_units;
  const tx: TransactionState = authenticated
    ? { ...pending, status: 'SUCCEEDED', response_code: 'SUCCEEDED', response_message: 'Transaction successful', updated_at: now }
    : { ...pending, status: 'DECLINED', response_code: 'DECLINED_BY_BANK', response_message: 'The payer failed the 3-D Secure challenge', updated_at: now };
  const changes: Partial<PaymentState> = !authenticated
    ? { status: 'DECLINED', sub_status: 'DECLINED' }
    : capture
      ? { status: 'SUCCEEDED', sub_status: 'APPROVED', authorized_units: amount, captured_units: amount }
      : { status: 'PENDING', sub_status: 'AUTHORIZED', authorized_units: amount, captured_units: 0 };
  const next: PaymentState = {
    ...payment,
    ...changes,
    payment_method: { ...payment.payment_method, card: { ...card, three_d_secure: authenticated ? 'challenge_passed' : 'challenge' } },
    transactions: payment.transactions.map((t) => (t.id === tx.id ? tx : t)),
    updated_at: now,
  };
  return { payment: next, transaction: tx, events: [paymentEvent(eventType[tx.type], next, tx)] };
}
