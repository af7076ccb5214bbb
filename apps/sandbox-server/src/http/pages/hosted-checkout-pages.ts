import { checkoutPath, type Checkout, type CheckoutTarget } from '../../app/hosted-checkout.js';
import type { PaymentState } from '../../domain/payment-state.js';
import { fromUnits } from '../../domain/money.js';
import type { KeptFields } from './hosted-checkout-form.js';
import { escapeHtml as escape, styledPage } from './html.js';
import { formatAmount } from './money-text.js';

/** One attempt key per rendered form: resubmitting the same form (a double click) pays once. */
export type NewAttempt = () => string;

const SANDBOX_NOTE = '<p class="hint">Switchyard sandbox hosted checkout: test cards only, no money moves.</p>';

const errorList = (errors: readonly string[]) =>
  errors.length === 0 ? '' : `<div class="error" role="alert" data-error><ul>${errors.map((e) => `<li>${escape(e)}</li>`).join('')}</ul></div>`;

function cardForm(action: string, attempt: string, kept: KeptFields): string {
  return `<form class="card" method="post" action="${escape(action)}" data-card-form>
<h2>Pay by card</h2>
<input type="hidden" name="attempt" value="${escape(attempt)}"><input type="hidden" name="method" value="CARD">
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" maxlength="23" required aria-describedby="card_hint">
<p id="card_hint" class="hint">Test cards: 4111 1111 1111 1111 approves, 4000 0000 0000 0002 declines, 4916 9940 6425 2017 asks for a 3-D Secure challenge.</p>
<label for="holder_name">Name on card</label>
<input id="holder_name" name="holder_name" autocomplete="cc-name" maxlength="26" value="${escape(kept.holder_name ?? '')}">
<div class="row"><div><label for="expiry">Expiry date (MM/YY)</label>
<input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required value="${escape(kept.expiry ?? '')}"></div>
<div><label for="security_code">Security code</label>
<input id="security_code" name="security_code" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required></div></div>
<button type="submit" data-pay>Pay</button>
</form>`;
}

function methodForm(action: string, attempt: string, method: string): string {
  return `<form method="post" action="${escape(action)}" data-method-form="${escape(method)}">
<input type="hidden" name="attempt" value="${escape(attempt)}"><input type="hidden" name="method" value="${escape(method)}">
<button type="submit" class="secondary">Pay with ${escape(method)}</button>
</form>`;
}

function summary(c: Checkout): string {
  const amount = c.amount ? `<p class="amount" data-amount>${escape(formatAmount(c.amount.value, c.amount.currency))}</p>` : '';
  return `<h1 data-description>${escape(c.description)}</h1>
${amount}
<p>Order <span data-merchant-order-id>${escape(c.merchant_order_id)}</span></p>
<p>Accepted: <span data-methods>${escape(c.methods.join(', '))}</span></p>`;
}

/** The checkout page: what is paid, and a form per allowed method (or why it cannot be paid). */
export function checkoutPage(c: Checkout, newAttempt: NewAttempt, errors: readonly string[] = [], kept: KeptFields = {}): string {
  const action = checkoutPath(c.target);
  const body = c.state.payable
    ? `${errorList(errors)}${c.methods.includes('CARD') ? cardForm(action, newAttempt(), kept) : ''}
${c.methods
  .filter((m) => m !== 'CARD')
  .map((m) => methodForm(action, newAttempt(), m))
  .join('\n')}`
    : `<div class="error" role="alert" data-unavailable="${escape(c.state.reason)}"><p>${escape(c.state.message)}</p></div>`;
  return styledPage(`Pay: ${c.description}`, `${summary(c)}${body}${SANDBOX_NOTE}`);
}

const STATUS_TEXT: Record<string, string> = {
  SUCCEEDED: 'Payment approved',
  PENDING: 'Payment authorized',
  DECLINED: 'Payment declined',
  ERROR: 'Payment failed',
  READY_TO_PAY: 'Waiting for your payment',
  EXPIRED: 'Payment expired',
  CANCELED: 'Payment cancelled',
};

/** The result of a payment the checkout made, with a way back to the merchant or to try again. */
export function resultPage(target: CheckoutTarget, p: PaymentState, links: { callback?: string; retry: boolean }): string {
  const title = STATUS_TEXT[p.status] ?? `Payment ${p.status}`;
  const last = p.transactions.at(-1);
  const reason = last && p.status !== 'SUCCEEDED' && p.status !== 'PENDING' ? `<p data-reason>${escape(last.response_message)} (<span data-response-code>${escape(last.response_code)}</span>)</p>` : '';
  const back = links.callback ? `<p><a data-callback href="${escape(links.callback)}">Return to the merchant</a></p>` : '';
  const retry = links.retry ? `<p><a data-retry href="${escape(checkoutPath(target))}">Try another card</a></p>` : '';
  return styledPage(
    title,
    `<h1 data-result>${escape(title)}</h1>
<div class="card"><p data-description>${escape(p.description)}</p>
<p class="amount">${escape(formatAmount(fromUnits(p.amount_units), p.currency))}</p>
<p>Status: <span data-status>${escape(p.status)}</span> / <span data-sub-status>${escape(p.sub_status)}</span></p>
<p>Payment <span data-payment-id>${escape(p.id)}</span></p>${reason}</div>
${retry}${back}${SANDBOX_NOTE}`,
  );
}

/** Where the challenge of the payment a form's attempt made is answered. */
export const challengePath = (target: CheckoutTarget, attempt: string): string => `${checkoutPath(target)}/attempts/${encodeURIComponent(attempt)}/challenge`;

/**
 * The issuer's 3-D Secure challenge, as the sandbox plays it: a one-time code, or giving up. It
 * lives under the form's attempt (`challengePath`), which only the buyer who sent the form knows.
 */
export function challengePage(target: CheckoutTarget, attempt: string, p: PaymentState, errors: readonly string[] = []): string {
  const action = challengePath(target, attempt);
  const card = p.payment_method.card;
  return styledPage(
    '3-D Secure verification',
    `<h1>Verify it is you</h1>
<p>Your bank asks you to confirm the payment of <strong>${escape(formatAmount(fromUnits(p.amount_units), p.currency))}</strong>${card ? ` with the card ending in ${escape(card.lfd)}` : ''}.</p>
${errorList(errors)}
<form class="card" method="post" action="${escape(action)}" data-challenge-form>
<label for="otp">One-time code</label>
<input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="8" required aria-describedby="otp_hint">
<p id="otp_hint" class="hint">Sandbox codes: 1234 authenticates, 1111 fails the authentication.</p>
<button type="submit" data-verify>Verify</button>
</form>
<form method="post" action="${escape(action)}"><input type="hidden" name="otp" value="1111"><button type="submit" class="secondary" data-fail>Fail the authentication</button></form>
${SANDBOX_NOTE}`,
  );
}

/** The page a resubmitted form lands on while its first submission is still being paid: it reloads itself. */
export function processingPage(): string {
  return styledPage(
    'Processing your payment',
    `<meta http-equiv="refresh" content="1"><h1>Processing your payment</h1><p role="status">This form was sent twice; the first payment is still being processed. This page reloads by itself.</p>`,
  );
}

/** Every error of the checkout: a readable page with its reason, never a JSON body or a stack. */
export function errorPage(title: string, reason: string): string {
  return styledPage(title, `<h1>${escape(title)}</h1><div class="error" role="alert" data-error><p>${escape(reason)}</p></div>${SANDBOX_NOTE}`);
}
