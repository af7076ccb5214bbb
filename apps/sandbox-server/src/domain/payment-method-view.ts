import type { DirectEnrolledPaymentMethod, SessionEnrolledPaymentMethod } from '@switchyard/contract';
import { displayName, type PaymentMethodState } from './payment-method-state.js';

const PROVIDER = { id: 'SANDBOX', type: 'SANDBOX_GATEWAY', provider_status: null };

/** `currency` only when the verification has one, as upstream answers (Enroll Payment Method (direct)). */
const verifyOf = (m: PaymentMethodState): DirectEnrolledPaymentMethod['verify'] => ({
  vault_on_success: m.verify.vault_on_success,
  ...(m.verify.currency === null ? {} : { currency: m.verify.currency }),
  payment: m.verify.payment ?? null,
});

/**
 * The issuer of a sandbox card: spec §2.4 types it a string, and the sandbox has no BIN table
 * to name a real bank, so it names the brand's test issuer.
 */
const issuerOf = (brand: string) => `${brand} SANDBOX ISSUER`;

export function presentSessionMethod(m: PaymentMethodState, customerPayer: SessionEnrolledPaymentMethod['customer_payer']): SessionEnrolledPaymentMethod {
  return {
    id: m.id,
    account_id: m.account_id,
    name: displayName(m),
    description: `${displayName(m)} enrolled in a customer session`,
    type: m.type,
    category: m.category,
    country: m.country,
    status: m.status,
    created_at: m.created_at,
    updated_at: m.updated_at,
    enrollment: { session: m.customer_session ?? '', sdk_required_action: m.status === 'READY_TO_ENROLL' },
    provider: PROVIDER,
    ...(customerPayer ? { customer_payer: customerPayer } : {}),
    verify: verifyOf(m),
    preferred: null,
    vaulted_token: m.status === 'ENROLLED' || m.status === 'UNENROLLED' ? m.vaulted_token : null,
    customer_id: m.customer_id,
  };
}

export function presentDirectMethod(m: PaymentMethodState): DirectEnrolledPaymentMethod {
  const card = m.card;
  return {
    idempotency_key: m.idempotency_key ?? '',
    name: displayName(m),
    description: `${displayName(m)} enrolled directly`,
    type: m.type,
    category: m.category,
    country: m.country,
    status: m.status,
    sub_status: m.sub_status,
    vaulted_token: m.vaulted_token ?? '',
    // Spec §2.4 types callback_url a string (not nullable): empty when the request sent none.
    callback_url: m.callback_url ?? '',
    action: m.status === 'READY_TO_ENROLL' && m.redirect_url ? 'REDIRECT_URL' : null,
    created_at: m.created_at,
    updated_at: m.updated_at,
    card_data: card
      ? {
          iin: card.iin,
          lfd: card.lfd,
          expiration_month: card.expiration_month,
          expiration_year: card.expiration_year % 100,
          number_length: card.number_length,
          security_code_length: card.security_code_length ?? 0,
          brand: card.brand,
          issuer: issuerOf(card.brand),
          issuer_code: null,
          category: 'CREDIT',
          type: 'CREDIT',
          fingerprint: card.fingerprint,
          holder_name: card.holder_name ?? '',
          country_code: m.country,
        }
      : {},
    last_successfully_used: null,
    last_successfully_used_at: null,
    preferred: null,
    verify: verifyOf(m),
    customer_id: m.customer_id,
    parent_type: m.parent_type ?? m.category,
    redirect_url: m.status === 'READY_TO_ENROLL' ? (m.redirect_url ?? '') : '',
    // Upstream returns an object (raw_request/raw_response only for allowlisted organizations).
    provider_data: m.provider_data ?? {},
  };
}
