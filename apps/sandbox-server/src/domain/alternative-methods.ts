import { PAYMENT_METHODS, type MethodFlow, type PayerOutcome, type PaymentMethodType } from '@switchyard/contract';
import type { TestOutcome } from './cards.js';
import { DomainError } from './errors.js';
import { fromUnits } from './money.js';
import type { AlternativeMethodState, PaymentState, TransactionState } from './payment-state.js';
import { createPayment, paymentEvent, type Transition } from './payments.js';

/**
 * Payment methods other than cards, from upstream's Create Payment: wallets
 * (a device token) are decided at once like a card; every other method waits for the payer, who
 * pays a QR code, a cash voucher, a bank transfer or approves on a page, until it expires.
 */

const HOUR_MS = 3600_000;

/**
 * How long a method waits for the payer when the request sets no `expires_at`: a PIX charge lasts
 * a day (the instant-payment API's default `expiracao` of 86400 s), a voucher or transfer three
 * days (cash vouchers are commonly valid that long), a redirect an hour (a payer on a page).
 */
export const WAIT_MS: Record<Exclude<MethodFlow, 'card' | 'wallet'>, number> = {
  qr: 24 * HOUR_MS,
  voucher: 72 * HOUR_MS,
  bank_transfer: 72 * HOUR_MS,
  redirect: HOUR_MS,
};

export interface AlternativeInput {
  type: Exclude<PaymentMethodType, 'CARD'>;
  now: string;
  /** The code of the payer page; the references are derived from it. */
  pageCode: string;
  baseUrl: string;
  amountUnits: number;
  currency: string;
  expiresAt?: string;
  benefitType?: string;
  accountType?: string;
  bankAccountMaskNumber?: string;
  wallet?: { paymentToken?: string; lfd?: string; verify?: boolean };
}

/** Digits derived from a seed (its characters' codes, in turn): stable per payment. */
function digitsOf(seed: string, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i += 1) out += String((seed.charCodeAt(i % seed.length) + i) % 10);
  return out;
}

/** CRC-16/CCITT-FALSE, the checksum that closes an EMV QR payload (field 63). */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const tlv = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** A PIX "copy and paste" payload: an EMV merchant-presented QR with the amount and the reference. */
export function pixPayload(reference: string, amountUnits: number): string {
  const body =
    tlv('00', '01') +
    tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', `${reference.toLowerCase()}@sandbox.invalid`)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', fromUnits(amountUnits).toFixed(2)) +
    tlv('58', 'BR') +
    tlv('59', 'SANDBOX MERCHANT') +
    tlv('60', 'SAO PAULO') +
    tlv('62', tlv('05', reference.slice(0, 25)));
  return `${body}6304${crc16(`${body}6304`)}`;
}

function expiryOf(input: AlternativeInput, flow: keyof typeof WAIT_MS): string {
  if (input.expiresAt === undefined) return new Date(Date.parse(input.now) + WAIT_MS[flow]).toISOString();
  if (Date.parse(input.expiresAt) <= Date.parse(input.now)) {
    throw new DomainError('INVALID_PARAMETERS', [`payment_method.detail expires_at ${input.expiresAt} is not in the future (sandbox time ${input.now})`]);
  }
  return new Date(Date.parse(input.expiresAt)).toISOString();
}

/** A non-card method as the payment keeps it; refuses a currency the method does not settle in. */
export function alternativeMethod(input: AlternativeInput): AlternativeMethodState {
  const profile = PAYMENT_METHODS[input.type];
  if (profile.currencies && !profile.currencies.includes(input.currency)) {
    throw new DomainError('INVALID_PARAMETERS', [`amount.currency ${input.currency}: ${input.type} settles in ${profile.currencies.join(', ')} only`]);
  }
  const base: AlternativeMethodState = {
    flow: profile.flow,
    detail: profile.detail,
    category: profile.category,
    refund: profile.refund,
    expires_at: null,
    page_code: null,
    redirect_url: null,
    reference: null,
    qr_code: null,
    barcode: null,
    instruction: null,
    bank_account: null,
    beneficiary_name: null,
    benefit_type: input.benefitType ?? null,
    account_type: input.accountType ?? null,
    bank_account_mask_number: input.bankAccountMaskNumber ?? null,
    wallet: null,
  };
  if (profile.flow === 'card') throw new DomainError('INTERNAL_ERROR', ['a card is no alternative method']);
  if (profile.flow === 'wallet') {
    const w = input.wallet ?? {};
    return { ...base, wallet: { has_token: w.paymentToken !== undefined, lfd: w.lfd ?? null, verify: w.verify ?? false } };
  }
  const expiresAt = expiryOf(input, profile.flow);
  const reference = `SBX${digitsOf(input.pageCode, 21)}`;
  const waiting: AlternativeMethodState = {
    ...base,
    expires_at: expiresAt,
    page_code: input.pageCode,
    redirect_url: `${input.baseUrl}/pay/${input.pageCode}`,
    reference,
  };
  switch (profile.flow) {
    case 'qr':
      return {
        ...waiting,
        qr_code: input.type === 'PIX' ? pixPayload(reference, input.amountUnits) : `${tlv('00', '01')}${tlv('58', 'MX')}${tlv('62', tlv('05', reference))}`,
        instruction: `Scan the QR code or paste the code in the banking app before ${expiresAt}`,
      };
    case 'voucher':
      return {
        ...waiting,
        barcode: digitsOf(input.pageCode, 44),
        instruction: `Pay ${fromUnits(input.amountUnits)} ${input.currency} in cash with reference ${reference} before ${expiresAt}`,
      };
    case 'bank_transfer':
      return {
        ...waiting,
        bank_account: digitsOf(`${input.pageCode}clabe`, 18),
        beneficiary_name: 'SANDBOX MERCHANT',
        instruction: `Transfer ${fromUnits(input.amountUnits)} ${input.currency} with reference ${reference} before ${expiresAt}`,
      };
    case 'redirect':
      return { ...waiting, instruction: `Approve the payment on the page at redirect_url before ${expiresAt}` };
  }
}

/** A wallet without its device token cannot be charged: upstream answers such a request 201 with status ERROR. */
const NO_WALLET_TOKEN: TestOutcome = { kind: 'error', code: 'ERROR', message: 'No detail.wallet.payment_token: the wallet could not be charged' };

export const isWaitingForPayer = (p: PaymentState): boolean => p.status === 'READY_TO_PAY' && (p.payment_method.alternative?.expires_at ?? null) !== null;

/**
 * The first attempt of a non-card payment. A wallet goes the card's way (its outcome from the
 * description's test code, as a card without data); a method that waits for the payer is
 * READY_TO_PAY/CREATED with a CREATED purchase, as upstream's alternative-method answer.
 */
export function startAlternativePayment(draft: PaymentState, outcome: TestOutcome, stamp: { now: string; transactionId: string }): Transition {
  const method = draft.payment_method.alternative;
  if (!method) throw new DomainError('INTERNAL_ERROR', [`payment ${draft.id} has no alternative method`]);
  if (method.flow === 'wallet') return createPayment(draft, method.wallet?.has_token ? outcome : NO_WALLET_TOKEN, stamp);
  const tx: TransactionState = {
    id: stamp.transactionId,
    type: 'PURCHASE',
    status: 'CREATED',
    amount_units: draft.amount_units,
    response_code: 'CREATED',
    response_message: 'Waiting for the payer',
    reason: null,
    description: draft.description,
    merchant_reference: draft.merchant_reference,
    created_at: stamp.now,
    updated_at: stamp.now,
  };
  const payment: PaymentState = { ...draft, status: 'READY_TO_PAY', sub_status: 'CREATED', transactions: [tx], updated_at: stamp.now };
  return { payment, transaction: tx, events: [paymentEvent('payment.purchase', payment, tx)] };
}

const SETTLED: Record<PayerOutcome, { status: string; tx: TransactionState['status']; code: string; message: (p: PaymentState) => string }> = {
  SUCCEEDED: { status: 'SUCCEEDED', tx: 'SUCCEEDED', code: 'SUCCEEDED', message: () => 'Transaction successful' },
  DECLINED: { status: 'DECLINED', tx: 'DECLINED', code: 'DECLINED', message: () => 'The payer did not approve the payment' },
  EXPIRED: { status: 'EXPIRED', tx: 'EXPIRED', code: 'EXPIRED', message: (p) => `The payer did not pay before ${p.payment_method.alternative?.expires_at}` },
};

/** The payer's outcome on a payment that waits for one: the purchase and the payment end with it. */
export function settleByPayer(payment: PaymentState, outcome: PayerOutcome, now: string): Transition {
  if (!isWaitingForPayer(payment)) {
    throw new DomainError('INVALID_STATE', [`payment ${payment.id} is ${payment.status}/${payment.sub_status}; only a ${payment.payment_method.type} payment waiting for the payer (READY_TO_PAY) can be paid, declined or expired`]);
  }
  const s = SETTLED[outcome];
  const purchase = payment.transactions.find((t) => t.type === 'PURCHASE' && t.status === 'CREATED');
  if (!purchase) throw new DomainError('INTERNAL_ERROR', [`payment ${payment.id} has no open purchase`]);
  const tx: TransactionState = { ...purchase, status: s.tx, response_code: s.code, response_message: s.message(payment), updated_at: now };
  const paid = outcome === 'SUCCEEDED' ? payment.amount_units : 0;
  const next: PaymentState = {
    ...payment,
    status: s.status,
    sub_status: outcome === 'SUCCEEDED' ? 'APPROVED' : s.status,
    authorized_units: paid,
    captured_units: paid,
    transactions: payment.transactions.map((t) => (t.id === tx.id ? tx : t)),
    updated_at: now,
  };
  return { payment: next, transaction: tx, events: [paymentEvent('payment.purchase', next, tx)] };
}

/** When the clock expires the payment (merchant ms), or null when it waits for nothing. */
export function waitingExpiryMs(payment: PaymentState): number | null {
  const at = payment.payment_method.alternative?.expires_at;
  return isWaitingForPayer(payment) && at ? Date.parse(at) : null;
}

/**
 * Refund rules of the method beyond the card's: a payment made in cash can only be refunded to a
 * bank account, which upstream's refund request carries in `payment_method.detail.bank_transfer`.
 */
export function checkRefundPolicy(payment: PaymentState, toBankAccount: boolean): void {
  const method = payment.payment_method.alternative;
  if (method?.refund === 'to_bank_account' && !toBankAccount) {
    throw new DomainError('INVALID_PARAMETERS', [
      `payment_method.detail.bank_transfer: payment ${payment.id} was paid in cash (${payment.payment_method.type}); a refund needs the bank account to send the money to`,
    ]);
  }
}
