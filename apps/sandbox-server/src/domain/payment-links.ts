import type { PaymentLink } from '@switchyard/contract';

export type LinkAvailability = 'available' | 'not yet available' | 'expired';

/** Whether the link can be paid at `nowMs` (its merchant's sandbox clock): from `start_at`, until before `finish_at`. */
export function linkAvailability(link: Pick<PaymentLink, 'availability'>, nowMs: number): LinkAvailability {
  if (link.availability.start_at && Date.parse(link.availability.start_at) > nowMs) return 'not yet available';
  if (link.availability.finish_at && Date.parse(link.availability.finish_at) <= nowMs) return 'expired';
  return 'available';
}

/**
 * A payment link as the sandbox keeps it: its API view, plus what the create request asked of the
 * payments made with it (`vault_on_success`, §4.12, which the view does not echo) and the last
 * payment its hosted checkout made (absent on links stored before the checkout took payments).
 */
export type PaymentLinkState = PaymentLink & { vault_on_success?: boolean; last_payment_id?: string | null };

/** Payment statuses that took no money and never will: a one-time link they were made with can be paid again. */
const ENDED_UNPAID: readonly string[] = ['DECLINED', 'ERROR', 'EXPIRED', 'CANCELED', 'REJECTED'];

export type LinkState = { payable: true } | { payable: false; reason: 'not yet available' | 'expired' | 'used'; message: string };

/**
 * Whether the hosted checkout may take a payment with the link now. A one-time link (§4.12 "true
 * allows one use only") is used by a payment that went through or may still (approved, authorized,
 * waiting for a 3-D Secure challenge or for the payer of another method); one that ended unpaid
 * (declined, expired...) leaves it open, as a declined card at a shop's till does.
 */
export function linkState(link: PaymentLinkState, nowMs: number, lastPaymentStatus: string | undefined): LinkState {
  const availability = linkAvailability(link, nowMs);
  if (availability === 'not yet available') return { payable: false, reason: availability, message: `This link can be paid from ${link.availability.start_at}.` };
  if (availability === 'expired') return { payable: false, reason: availability, message: `This link expired at ${link.availability.finish_at}.` };
  if (link.one_time_use && lastPaymentStatus !== undefined && !ENDED_UNPAID.includes(lastPaymentStatus)) {
    return { payable: false, reason: 'used', message: 'This link can be used once, and it has already been paid.' };
  }
  return { payable: true };
}

/**
 * The link after its hosted checkout made a payment: `payments_number` counts every payment made
 * with it (upstream: "Number of payments associated with this link"); a one-time link the payment
 * uses up is USED (one of upstream's link statuses; `linkState` reopens it if that payment ends unpaid).
 */
export function afterLinkPayment(link: PaymentLinkState, payment: { id: string; status: string }, now: string): PaymentLinkState {
  const used = link.one_time_use && !ENDED_UNPAID.includes(payment.status);
  return { ...link, payments_number: link.payments_number + 1, last_payment_id: payment.id, status: used ? 'USED' : 'CREATED', updated_at: now };
}
