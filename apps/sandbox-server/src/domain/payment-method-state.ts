import type { SCRIPTED_OUTCOMES, VerifyPayment } from '@switchyard/contract';
import type { StoredCard } from './payment-state.js';
import type { TestOutcome } from './cards.js';

/** A decline code a merchant scripts for an enrolled method's next charges. */
export type ScriptedOutcome = (typeof SCRIPTED_OUTCOMES)[number];

export type EnrollmentStatus = 'READY_TO_ENROLL' | 'ENROLLED' | 'DECLINED' | 'UNENROLLED';

/** An enrolled (vaulted) payment method. Holds a masked card only, never its number. */
export interface PaymentMethodState {
  id: string;
  flow: 'session' | 'direct';
  customer_id: string;
  account_id: string;
  customer_session: string | null;
  idempotency_key: string | null;
  type: string;
  category: string;
  country: string;
  status: EnrollmentStatus;
  sub_status: string | null;
  vaulted_token: string | null;
  card: StoredCard | null;
  /** What the card number forces at payment time (test cards); null when it forces nothing. */
  card_outcome: TestOutcome | null;
  /** Scripted outcomes of the next charges (sandbox control API), consumed one per charge. */
  scripted_outcomes: ScriptedOutcome[];
  callback_url: string | null;
  /** The request's `parent_type` (direct flow); absent on methods stored before it was kept. */
  parent_type?: string | null;
  /** The page where the payer confirms a direct enrollment that waits for them (READY_TO_ENROLL). */
  redirect_url?: string | null;
  /** `payment`: the VERIFY payment of a direct card enrollment; absent on methods stored before it existed. */
  verify: { vault_on_success: boolean; currency: string | null; payment?: VerifyPayment | null };
  provider_data: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

/** The category upstream shows for a payment method type. */
export function categoryOf(type: string): string {
  if (type === 'CARD') return 'CARD';
  if (type.endsWith('_WALLET') || type === 'WALLET_CONNECT') return 'WALLET';
  if (type.includes('PIX') || type.endsWith('_TOKENBOX') || type.endsWith('_ENROLLMENT') || type.endsWith('_ENROLLABLE')) return 'BANK_TRANSFER';
  return 'OTHER';
}

/** §4.1's enrollable types: CARD, WALLET_CONNECT, SMART_PIX, PIX_BIOMETRICO and the `<BRAND>_…` forms. */
export function isEnrollable(type: string): boolean {
  return ['CARD', 'WALLET_CONNECT', 'SMART_PIX', 'PIX_BIOMETRICO'].includes(type) || /_(ENROLLMENT|ENROLLABLE|WALLET|TOKENBOX)$/.test(type);
}

const titleCase = (type: string) =>
  type
    .toLowerCase()
    .split('_')
    .map((w) => (w ? w[0]?.toUpperCase() + w.slice(1) : w))
    .join(' ');

export const displayName = (m: Pick<PaymentMethodState, 'type' | 'card'>): string =>
  m.card ? `${titleCase(m.card.brand)} ****${m.card.lfd}` : titleCase(m.type);
