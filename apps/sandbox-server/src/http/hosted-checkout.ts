import type { RequestHandler } from 'express';
import type { PaymentLink } from '@switchyard/contract';
import { linkAvailability } from '../domain/payment-links.js';
import type { BaseClock } from '../runtime/clock.js';
import type { Store } from '../store/types.js';
import { escapeHtml as escape, page } from './html.js';
import { isStorableText } from './request-text.js';

/** The hosted checkout address of a payment link (`checkout_url`): a page describing the link and whether it can be paid now. */
export function hostedCheckout(store: Store, clock: BaseClock): RequestHandler {
  return async (req, res, next) => {
    try {
      const code = String(req.params.code ?? '');
      // No link code holds such text, and PostgreSQL would refuse the lookup.
      const found = isStorableText(code) ? await store.locate<PaymentLink>('payment_link', code) : undefined;
      const merchant = found && (await store.getMerchant(found.merchantId));
      res.type('html');
      if (!found || !merchant) {
        res.status(404).send(page('Payment link not found', '<h1>Payment link not found</h1>'));
        return;
      }
      const link = found.data;
      const state = linkAvailability(link, clock.at(merchant.clock_offset_seconds).getTime());
      res.send(
        page(
          link.description ?? 'Payment',
          `<h1>${escape(link.description ?? 'Payment')}</h1>
<p data-amount>${escape(String(link.amount.value))} ${escape(link.amount.currency)}</p>
<p data-status>${escape(link.status)}: ${state}</p>
<p>Switchyard sandbox hosted checkout for link ${escape(link.code)}. Methods: ${escape(link.payment_method_types.join(', ') || 'as configured')}.</p>`,
        ),
      );
    } catch (error) {
      next(error);
    }
  };
}
