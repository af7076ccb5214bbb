import type { Request, RequestHandler, Response } from 'express';
import type { PayerOutcome } from '@switchyard/contract';
import { findPayerPage, settlePayerOutcome } from '../../app/alternative-methods.js';
import type { RequestContext } from '../../app/context.js';
import { isWaitingForPayer } from '../../domain/alternative-methods.js';
import { DomainError } from '../../domain/errors.js';
import { fromUnits } from '../../domain/money.js';
import type { PaymentState } from '../../domain/payment-state.js';
import { webAddress } from '../../domain/web-address.js';
import type { HttpDeps } from '../api/deps.js';
import { escapeHtml as escape, page } from './html.js';
import { pageContext } from './page-context.js';

/** What the payer may do on the page; EXPIRED is the clock's (or the control route's). */
const PAGE_OUTCOMES: readonly PayerOutcome[] = ['SUCCEEDED', 'DECLINED'];

/** The payment behind a code and its merchant's context, with anything overdue expired first. */
async function load(deps: HttpDeps, code: string): Promise<{ ctx: RequestContext; payment: PaymentState } | undefined> {
  const ctx = await pageContext(deps, [code], async (store) => (await findPayerPage(store, code))?.merchantId);
  // Read again after the expiry: the payment may have just expired.
  const fresh = ctx && (await findPayerPage(ctx.store, code));
  return ctx && fresh ? { ctx, payment: fresh.payment } : undefined;
}

const row = (label: string, value: string | null, attr: string) =>
  value === null ? '' : `<dt>${escape(label)}</dt><dd data-${attr}>${escape(value)}</dd>`;

/** Links back only to a real web address: a callback such as `www.example.com` is not linked. */
function callbackLink(callbackUrl: string | null): string {
  const url = webAddress(callbackUrl);
  return url ? `<p><a data-callback href="${escape(url.href)}">Return to the merchant</a></p>` : '';
}

function render(code: string, p: PaymentState): string {
  const m = p.payment_method.alternative;
  const amount = `${fromUnits(p.amount_units)} ${p.currency}`;
  const details = m
    ? `<dl>${row('Reference', m.reference, 'reference')}${row('QR code (copy and paste)', m.qr_code, 'qr-code')}${row('Barcode', m.barcode, 'barcode')}${row('Bank account', m.bank_account, 'bank-account')}${row('Beneficiary', m.beneficiary_name, 'beneficiary')}${row('Pay before', m.expires_at, 'expires-at')}</dl><p>${escape(m.instruction ?? '')}</p>`
    : '';
  const form = isWaitingForPayer(p)
    ? `<form method="post" action="/pay/${escape(code)}">
<button type="submit" name="outcome" value="SUCCEEDED">Pay ${escape(amount)}</button>
<button type="submit" name="outcome" value="DECLINED">Decline</button>
</form>`
    : '';
  return page(
    `${p.payment_method.type} payment`,
    `<h1>${escape(p.description)}</h1>
<p data-amount>${escape(amount)}</p>
<p>Method: <span data-method>${escape(p.payment_method.type)}</span></p>
<p>Status: <span data-status>${escape(p.status)}</span></p>
${details}${form}${callbackLink(p.callback_url)}
<p>Switchyard sandbox payer page: what the payer sees at the method's provider.</p>`,
  );
}

const notFound = (res: Response) => res.status(404).send(page('Payment not found', '<h1>Payment not found</h1>'));

type Found = NonNullable<Awaited<ReturnType<typeof load>>>;

/** A `/pay/{code}` handler: the page's payment loaded (or 404), any error passed on to Express. */
function onPayerPage(deps: HttpDeps, act: (req: Request, res: Response, code: string, found: Found) => Promise<void> | void): RequestHandler {
  return async (req, res, next) => {
    try {
      res.type('html');
      const code = String(req.params.code ?? '');
      const found = await load(deps, code);
      if (!found) return void notFound(res);
      await act(req, res, code, found);
    } catch (error) {
      next(error);
    }
  };
}

/** `GET /pay/{code}`: the page a waiting payment's `redirect_url` opens, with the form that pays or declines it. */
export const payerPage = (deps: HttpDeps): RequestHandler => onPayerPage(deps, (_req, res, code, found) => void res.send(render(code, found.payment)));

/** `POST /pay/{code}` (the page's form, `outcome=SUCCEEDED|DECLINED`): the payer acts, then sees the page again. */
export const payerAction = (deps: HttpDeps): RequestHandler =>
  onPayerPage(deps, async (req, res, code, found) => {
    const outcome = (req.body as Record<string, unknown> | undefined)?.outcome;
    if (typeof outcome !== 'string' || !(PAGE_OUTCOMES as readonly string[]).includes(outcome)) {
      res.status(400).send(page('Bad request', `<h1>Bad request</h1><p>outcome must be ${PAGE_OUTCOMES.join(' or ')}</p>`));
      return;
    }
    try {
      await settlePayerOutcome(found.ctx, found.payment.id, outcome as PayerOutcome);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      res.status(409).send(page('Payment not payable', `<h1>This payment can no longer be paid</h1><p>${escape(error.messages.join('; '))}</p>`));
      return;
    }
    // Post/redirect/get: reloading the result page does not submit the form again.
    res.redirect(303, `/pay/${encodeURIComponent(code)}`);
  });
