import { FRAME_ANCESTORS_NONE } from '../server/page-security.js';
import { randomUUID } from 'node:crypto';
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import type { RequestContext } from '../../app/context.js';
import {
  answerCheckoutChallenge,
  attemptOutcome,
  callbackWith,
  checkoutPath,
  checkoutPayment,
  loadCheckout,
  locateCheckout,
  payCheckout,
  wentThrough,
  type CheckoutPayment,
  type CheckoutTarget,
} from '../../app/hosted-checkout.js';
import { DomainError } from '../../domain/errors.js';
import { isAwaitingChallenge } from '../../domain/payments.js';
import type { HttpDeps } from '../api/deps.js';
import { readCheckoutForm } from './hosted-checkout-form.js';
import { challengePage, challengePath, checkoutPage, errorPage, processingPage, resultPage } from './hosted-checkout-pages.js';
import { pageContext } from './page-context.js';

/** The pages of one checkout, under a link's `checkout_url` or a session's page. */
const PREFIXES = { link: '/checkout/links/:code', session: '/checkout/sessions/:checkout_session' } as const;

/** A checkout form is a handful of short fields: anything bigger is not one (413 page). */
const FORM_LIMIT = '2kb';

const NOT_FOUND: Record<CheckoutTarget['kind'], string> = { link: 'Payment link not found', session: 'Checkout session not found' };

function send(res: Response, status: number, html: string): void {
  // A card form: never framed by another site (clickjacking; `denyFraming` sets the policy on every
  // page, this keeps it when the router is used alone). Its inline style stays allowed.
  res.status(status).type('html').setHeader('cache-control', 'no-store').setHeader('content-security-policy', FRAME_ANCESTORS_NONE).send(html);
}

const targetOf = (kind: CheckoutTarget['kind'], req: Request): CheckoutTarget =>
  kind === 'link' ? { kind, code: String(req.params.code ?? '') } : { kind, id: String(req.params.checkout_session ?? '') };

/**
 * Where the buyer goes once the form (its `attempt`) is paid: the challenge, the method's payer
 * page, the merchant, or the result.
 */
async function sendOnward(res: Response, ctx: RequestContext, target: CheckoutTarget, paid: CheckoutPayment, attempt: string): Promise<void> {
  const base = `${checkoutPath(target)}/payments/${encodeURIComponent(paid.payment_id)}`;
  if (paid.awaiting_challenge) return void res.redirect(303, challengePath(target, attempt));
  if (paid.redirect_url && paid.status === 'READY_TO_PAY') return void res.redirect(303, paid.redirect_url);
  const checkout = wentThrough(paid) ? await loadCheckout(ctx, target) : undefined;
  const callback = checkout && callbackWith(checkout.callback_url, target, paid);
  res.redirect(303, callback ?? base);
}

type Act = (req: Request, res: Response, ctx: RequestContext, target: CheckoutTarget) => Promise<void>;

/** A checkout page's handler: the checkout's merchant found (or a 404 page), any other failure passed to Express. */
function onCheckout(deps: HttpDeps, kind: CheckoutTarget['kind'], act: Act): RequestHandler {
  return async (req, res, next) => {
    try {
      const target = targetOf(kind, req);
      const ctx = await pageContext(deps, Object.values(req.params).map(String), (store) => locateCheckout(store, target));
      if (!ctx) return void send(res, 404, errorPage(NOT_FOUND[kind], 'No checkout has this address. Check the link you were sent.'));
      await act(req, res, ctx, target);
    } catch (error) {
      next(error);
    }
  };
}

const show: Act = async (_req, res, ctx, target) => {
  const checkout = await loadCheckout(ctx, target);
  if (!checkout) return void send(res, 404, errorPage(NOT_FOUND[target.kind], 'No checkout has this address.'));
  send(res, checkout.state.payable ? 200 : 409, checkoutPage(checkout, randomUUID));
};

/** The page again with the buyer's mistakes (what they typed kept, but never the card number or code), in a fresh form. */
async function refuse(res: Response, ctx: RequestContext, target: CheckoutTarget, status: number, errors: string[], kept = {}): Promise<void> {
  const checkout = await loadCheckout(ctx, target);
  if (!checkout) return void send(res, 404, errorPage(NOT_FOUND[target.kind], 'No checkout has this address.'));
  if (!checkout.state.payable) return void send(res, 409, checkoutPage(checkout, randomUUID));
  send(res, status, checkoutPage(checkout, randomUUID, errors, kept));
}

const pay: Act = async (req, res, ctx, target) => {
  const form = readCheckoutForm(req.body);
  if (!form.ok) return refuse(res, ctx, target, 400, form.errors, form.kept);
  let paid: CheckoutPayment;
  try {
    paid = await payCheckout(ctx, target, form.attempt, form.choice);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // The same form sent again while its first submission is being paid: wait for that one.
    if (error.code === 'REQUEST_IN_PROCESS') return void res.redirect(303, `${checkoutPath(target)}/attempts/${encodeURIComponent(form.attempt)}`);
    if (error.code === 'NOT_FOUND') return void send(res, 404, errorPage(NOT_FOUND[target.kind], error.messages.join(' ')));
    if (error.code === 'INVALID_STATE') return refuse(res, ctx, target, 409, error.messages);
    if (error.code === 'IDEMPOTENCY_DUPLICATED') return refuse(res, ctx, target, 409, ['This form was already sent and refused. Check the details and pay again.']);
    return refuse(res, ctx, target, 400, error.messages);
  }
  await sendOnward(res, ctx, target, paid, form.attempt);
};

/**
 * `GET …/attempts/{attempt}`: where a form sent twice waits for its first submission. A GET has no
 * side effect and is never the merchant's redirect (a reload or a shared link would send the
 * buyer, and the payment's identifiers, to the callback again): it goes on to the challenge or
 * the result page, which links to the merchant.
 */
const attempt: Act = async (req, res, ctx, target) => {
  const outcome = await attemptOutcome(ctx, target, String(req.params.attempt ?? ''));
  if (outcome === 'in progress') return void send(res, 200, processingPage());
  if (!outcome) return void send(res, 404, errorPage('Payment attempt not found', 'This checkout made no such payment attempt, or it was refused. Go back to the checkout and pay again.'));
  const attemptId = String(req.params.attempt ?? '');
  res.redirect(303, outcome.awaiting_challenge ? challengePath(target, attemptId) : `${checkoutPath(target)}/payments/${encodeURIComponent(outcome.payment_id)}`);
};

const result: Act = async (req, res, ctx, target) => {
  const payment = await checkoutPayment(ctx, target, String(req.params.payment_id ?? ''));
  if (!payment) return void send(res, 404, errorPage('Payment not found', 'This checkout made no such payment.'));
  // Its challenge is answered only under the attempt that made it (`challenge`): a payment made
  // through the API with this checkout's session, or a page opened without the form, cannot pass it here.
  if (isAwaitingChallenge(payment)) return void send(res, 409, errorPage('Payment awaiting verification', 'This payment waits for its 3-D Secure verification in the checkout page that started it.'));
  const checkout = await loadCheckout(ctx, target);
  const paid: CheckoutPayment = {
    payment_id: payment.id,
    status: payment.status,
    sub_status: payment.sub_status,
    merchant_order_id: payment.merchant_order_id,
    redirect_url: null,
    awaiting_challenge: false,
  };
  send(res, 200, resultPage(target, payment, { callback: checkout && callbackWith(checkout.callback_url, target, paid), retry: checkout?.state.payable ?? false }));
};

/**
 * `…/attempts/{attempt}/challenge`: the 3-D Secure step of the payment the form's attempt made on
 * this checkout. The attempt is the form's own random id, known to the buyer who sent it: holding
 * the checkout's address, or a payment id, is not enough to pass the challenge.
 */
const challenge: Act = async (req, res, ctx, target) => {
  const attemptId = String(req.params.attempt ?? '');
  const made = await attemptOutcome(ctx, target, attemptId);
  const payment = made && made !== 'in progress' ? await checkoutPayment(ctx, target, made.payment_id) : undefined;
  if (!payment) return void send(res, 404, errorPage('Payment not found', 'This checkout made no such payment.'));
  if (!isAwaitingChallenge(payment)) return void res.redirect(303, `${checkoutPath(target)}/payments/${encodeURIComponent(payment.id)}`);
  if (req.method === 'GET') return void send(res, 200, challengePage(target, attemptId, payment));
  const otp = (req.body as { otp?: unknown } | undefined)?.otp;
  const answered = typeof otp === 'string' ? await answerCheckoutChallenge(ctx, payment.id, otp) : 'unknown';
  if (answered === 'unknown') return void send(res, 400, challengePage(target, attemptId, payment, ['One-time code: that code is not the one your bank sent. Try again.']));
  await sendOnward(res, ctx, target, answered, attemptId);
};

/** The form's urlencoded body; one too large or malformed gets a page saying so, as every checkout error does. */
function formBody(): RequestHandler {
  const parse = express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 20 });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const status = typeof (err as { status?: unknown }).status === 'number' ? (err as { status: number }).status : 400;
      send(res, status, errorPage(status === 413 ? 'Form too large' : 'Form not understood', status === 413 ? 'The form sent more than a checkout form holds. Go back to the checkout and pay again.' : 'The form could not be read. Go back to the checkout and pay again.'));
    });
}

/**
 * The checkout's failures as pages too: a path Express cannot decode (bad percent-encoding) is a
 * 400 page; anything unexpected is logged (the error only: never the form, which holds the card)
 * and answered with a 500 page naming the request id.
 */
function pageOnError(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, next) => {
    if (res.headersSent) return void next(err);
    if (err instanceof URIError) return void send(res, 400, errorPage('Address not understood', 'This address is not valid percent-encoded UTF-8. Check the link you were sent.'));
    const requestId = res.locals.requestId as string | undefined;
    logger.error({ requestId, err }, 'unhandled error');
    send(res, 500, errorPage('Something went wrong', `The sandbox could not show this page (request id ${requestId ?? 'unknown'}). Try again.`));
  };
}

/**
 * The hosted checkout of payment links (`checkout_url`) and checkout sessions: the page, its form
 * (a bounded urlencoded body), the wait for a resubmitted form, the 3-D Secure challenge and the
 * result. Every payment is made through the API's own use cases (app/hosted-checkout.ts).
 */
export function hostedCheckout(deps: HttpDeps & { logger: Logger }): Router {
  const router = express.Router();
  const form = formBody();
  for (const kind of ['link', 'session'] as const) {
    const prefix = PREFIXES[kind];
    router.get(prefix, onCheckout(deps, kind, show));
    router.post(prefix, form, onCheckout(deps, kind, pay));
    router.get(`${prefix}/attempts/:attempt`, onCheckout(deps, kind, attempt));
    router.get(`${prefix}/payments/:payment_id`, onCheckout(deps, kind, result));
    router.get(`${prefix}/attempts/:attempt/challenge`, onCheckout(deps, kind, challenge));
    router.post(`${prefix}/attempts/:attempt/challenge`, form, onCheckout(deps, kind, challenge));
  }
  router.use(pageOnError(deps.logger));
  return router;
}
