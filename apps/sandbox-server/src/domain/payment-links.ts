import type { PaymentLink } from '@switchyard/contract';

export type LinkAvailability = 'available' | 'not yet available' | 'expired';

/** Whether the link can be paid at `nowMs` (its merchant's sandbox clock): from `start_at`, until before `finish_at`. */
export function linkAvailability(link: Pick<PaymentLink, 'availability'>, nowMs: number): LinkAvailability {
  if (link.availability.start_at && Date.parse(link.availability.start_at) > nowMs) return 'not yet available';
  if (link.availability.finish_at && Date.parse(link.availability.finish_at) <= nowMs) return 'expired';
  return 'available';
}

/** What a link's payment is to the link: the statuses and sub-statuses that decide whether it used the link. */
export type LinkPayment = { status: string; sub_status: string };

/**
 * A payment link as the sandbox keeps it: its API view, plus what the create request asked of the
 * payments made with it (`vault_on_success`, §4.12, which the view does not echo) and the last
 * payment its hosted checkout made (absent on links stored before the checkout took payments).
 * A one-time link keeps that payment's status too (`last_payment_status`, app/checkout.ts keeps it
 * in step), so deciding whether it can be paid reads the link alone, never the payment: a new
 * payment holds the link, and a change to a payment holds the payment and then its link, so
 * reading the payment under the link would take the two in the opposite order. A link for many
 * payments keeps null there (nothing to follow); links stored before this field have none.
 */
export type PaymentLinkState = PaymentLink & { vault_on_success?: boolean; last_payment_id?: string | null; last_payment_status?: LinkPayment | null };

/** Payment statuses that took no money and never will: a one-time link they were made with can be paid again. */
const ENDED_UNPAID: readonly string[] = ['DECLINED', 'ERROR', 'EXPIRED', 'CANCELED', 'REJECTED'];

/**
 * Where a one-time link stands with its last payment: `open` with none, or one that ended unpaid;
 * `in flight` while that payment may still go either way (created, waiting for its payer, or
 * pending other than authorized: a 3-D Secure challenge, a provider's confirmation); `used` once
 * it went through (approved, authorized for a later capture, or anything after that: refunded,
 * disputed...).
 */
export type LinkUse = 'open' | 'in flight' | 'used';

export function linkUse(last: LinkPayment | undefined): LinkUse {
  if (!last || ENDED_UNPAID.includes(last.status)) return 'open';
  if (last.status === 'CREATED' || last.status === 'READY_TO_PAY' || (last.status === 'PENDING' && last.sub_status !== 'AUTHORIZED')) return 'in flight';
  return 'used';
}

export type LinkState = { payable: true } | { payable: false; reason: 'not yet available' | 'expired' | 'used' | 'in progress'; message: string };

/**
 * Whether the hosted checkout may take a payment with the link now, from the link alone. A
 * one-time link (§4.12 "true allows one use only") takes no second payment while its last one is
 * in flight, as two buyers could otherwise both pay it, nor once it is USED; one that ended unpaid
 * (declined, a challenge failed, expired...) leaves it open, as a declined card at a shop's till
 * does. A link stored before it kept its last payment's status (`hasLastPaymentStatus`) is read
 * by its `status`, as it was then: USED is used, CREATED open.
 */
export function linkState(link: PaymentLinkState, nowMs: number): LinkState {
  const availability = linkAvailability(link, nowMs);
  if (availability === 'not yet available') return { payable: false, reason: availability, message: `This link can be paid from ${link.availability.start_at}.` };
  if (availability === 'expired') return { payable: false, reason: availability, message: `This link expired at ${link.availability.finish_at}.` };
  if (!link.one_time_use) return { payable: true };
  const use = link.status === 'USED' ? 'used' : linkUse(link.last_payment_status ?? undefined);
  if (use === 'used') return { payable: false, reason: 'used', message: 'This link can be used once, and it has already been paid.' };
  if (use === 'in flight') {
    return { payable: false, reason: 'in progress', message: 'This link can be used once, and a payment with it is in progress. If that payment fails, the link can be paid again.' };
  }
  return { payable: true };
}

/**
 * Whether the link keeps what `linkState` needs of its last payment: false only for a one-time
 * link with a payment, stored before links kept its status (app/hosted-checkout.ts reads that
 * payment once, in the order a payment's change takes, and stores it on the link).
 */
export function hasLastPaymentStatus(link: PaymentLinkState): boolean {
  return !link.one_time_use || !link.last_payment_id || link.last_payment_status !== undefined;
}

/**
 * A link's `status` with `last` as its last payment. Upstream's link statuses are CREATED, USED,
 * CANCELED, EXPIRED, ERROR (upstream's notes, "Statuses"); the spec shows CREATED (§2.9). A one-time
 * link is USED once a payment with it went through, not while that payment is in flight: a
 * challenge abandoned or failed, or a payer who never pays, ends the payment unpaid and leaves the
 * link CREATED, payable again. USED is final: an authorization cancelled afterwards (CANCELED) or
 * a payment refunded does not give the link back. A link for many payments (`one_time_use` false)
 * stays CREATED.
 */
export function linkStatus(link: Pick<PaymentLinkState, 'one_time_use' | 'status'>, last: LinkPayment | undefined): 'CREATED' | 'USED' {
  return link.status === 'USED' || (link.one_time_use && linkUse(last) === 'used') ? 'USED' : 'CREATED';
}

const linkPaymentOf = (p: LinkPayment): LinkPayment => ({ status: p.status, sub_status: p.sub_status });

/**
 * The link after its hosted checkout made a payment: `payments_number` counts every payment made
 * with it (upstream: "Number of payments associated with this link"), and a one-time link's
 * `status` and `last_payment_status` follow that payment (`linkStatus`; `followLastPayment` as
 * the payment moves on).
 */
export function afterLinkPayment(link: PaymentLinkState, payment: LinkPayment & { id: string }, now: string): PaymentLinkState {
  return {
    ...link,
    payments_number: link.payments_number + 1,
    last_payment_id: payment.id,
    last_payment_status: link.one_time_use ? linkPaymentOf(payment) : null,
    status: linkStatus(link, payment),
    updated_at: now,
  };
}

/**
 * The one-time link after its last payment moved (a challenge answered, a payer who paid or never
 * did, a cancellation), or undefined when the link has nothing to change: a link for many
 * payments, a payment that is not the link's last one, a status it already keeps. `updated_at`
 * moves with the link's `status` only: the rest is the sandbox's own bookkeeping.
 */
export function followLastPayment(link: PaymentLinkState, payment: LinkPayment & { id: string }, now: string): PaymentLinkState | undefined {
  if (!link.one_time_use || link.last_payment_id !== payment.id) return undefined;
  const last = linkPaymentOf(payment);
  const status = linkStatus(link, last);
  const kept = link.last_payment_status;
  if (status === link.status && kept?.status === last.status && kept.sub_status === last.sub_status) return undefined;
  return { ...link, status, last_payment_status: last, updated_at: status === link.status ? link.updated_at : now };
}
