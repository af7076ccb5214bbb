import type { Request, RequestHandler, Response } from 'express';
import type { PayerOutcome } from '@switchyard/contract';
import { expireWaitingPayments, findPayerPage, settlePayerOutcome } from '../app/alternative-methods.js';
import type { RequestContext } from '../app/context.js';
import { isWaitingForPayer } from '../domain/alternative-methods.js';
import { DomainError } from '../domain/errors.js';
import { fromUnits } from '../domain/money.js';
import type { PaymentState } from '../domain/payment-state.js';
import type { HttpDeps } from './deps.js';
import { merchantRequestContext } from './merchant-context.js';
import { escapeHtml as escape, page } from './html.js';
import { isStorableText } from './request-text.js';

/** What the payer may do on the page; EXPIRED is the clock's (or the control route's). */
const PAGE_OUTCOMES: readonly PayerOutcome[] = ['SUCCEEDED', 'DECLINED'];

/** The payment's merchant as a use-case context: the page acts for the payer, with no API keys. */
async function contextFor(deps: HttpDeps, merchantId: string): Promise<RequestContext | undefined> {
  const merchant = await deps.store.getMerchant(merchantId);
  if (!merchant) return undefined;
  return merchantRequestContext(deps, merchant);
}

/** The payment and its merchant's context behind a code, with anything overdue expired first. */
async function load(deps: HttpDeps, code: string): Promise<{ ctx: RequestContext; payment: PaymentState } | undefined> {
  // No page code holds such text, and PostgreSQL would refuse the lookup.
  if (!isStorableText(code)) return undefined;
  const found = await findPayerPage(deps.store, code);
  const ctx = found && (await contextFor(deps, found.merchantId));
  if (!found || !ctx) return undefined;
  await expireWaitingPayments(ctx);
  const fresh = await findPayerPage(deps.store, code);
  return fresh ? { ctx, payment: fresh.payment } : undefined;
}

const row = (label: string, value: string | null, attr: string) =>
  value === null ? '' : `<dt>${escape(label)}</dt><dd data-${attr}>${escape(value)}</dd>`;

/** Links back only to a real web address: a callback such as `www.example.com` is shown, not linked. */
const callbackLink = (url: string | null) =>
  url && /^https?:\/\//.test(url) ? `<p><a data-callback href="${escape(url)}">Return to the merchant</a></p>` : '';

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
