import type { PaymentMethodDetail } from '@switchyard/contract';
import type { PaymentState } from './payment-state.js';

/**
 * `payment_method_detail` of a non-card payment (and `detail` of its transactions), under the key
 * upstream answers for the method: `ticket` (upstream's alternative-method answer), `wallet`,
 * `bank_transfer` or `bnpl` (upstream's retrieve-payment fields).
 */
export function alternativeDetail(p: PaymentState): PaymentMethodDetail | null {
  const m = p.payment_method.alternative;
  if (!m) return null;
  switch (m.detail) {
    case 'ticket':
      return {
        ticket: {
          type: p.payment_method.type,
          benefit_type: m.benefit_type,
          date_of_expiration: m.expires_at,
          payment_instruction: m.instruction,
          provider_number: m.reference,
          provider_barcode: m.barcode,
          provider_logo: null,
          provider_format: m.barcode ? 'BARCODE' : null,
          redirect_url: m.redirect_url,
          expires_at: m.expires_at,
        },
      };
    case 'bank_transfer':
      return {
        bank_transfer: {
          provider_image: null,
          account_type: m.account_type,
          bank_name: m.bank_account ? 'SANDBOX BANK' : null,
          beneficiary_name: m.beneficiary_name,
          bank_account: m.bank_account,
          bank_account_2: null,
          beneficiary_document_type: null,
          beneficiary_document: null,
          payment_instruction: m.instruction,
          redirect_url: m.redirect_url,
          bank_account_mask_number: m.bank_account_mask_number,
          code: m.qr_code,
          reference: m.reference,
          expires_at: m.expires_at,
        },
      };
    case 'bnpl':
      return { bnpl: { installments: null, provider_image: null, redirect_url: m.redirect_url, customer_data: null } };
    default:
      return {
        wallet: {
          verify: m.wallet?.verify ?? false,
          capture: p.payment_method.capture,
          authorization_code: null,
          card_data: m.wallet ? { lfd: m.wallet.lfd, brand: null } : null,
          redirect_url: m.redirect_url,
          expires_at: m.expires_at,
        },
      };
  }
}
