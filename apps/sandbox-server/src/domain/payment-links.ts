import type { PaymentLink } from '@switchyard/contract';

export type LinkAvailability = 'available' | 'not yet available' | 'expired';

/** Whether the link can be paid at `nowMs` (its merchant's sandbox clock): from `start_at`, until before `finish_at`. */
export function linkAvailability(link: Pick<PaymentLink, 'availability'>, nowMs: number): LinkAvailability {
  if (link.availability.start_at && Date.parse(link.availability.start_at) > nowMs) return 'not yet available';
  if (link.availability.finish_at && Date.parse(link.availability.finish_at) <= nowMs) return 'expired';
  return 'available';
}
