import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { DirectEnrolledPaymentMethod } from '@switchyard/contract';
import type { RequestContext } from '../../app/context.js';
import { getDirectEnrollment, settleEnrollment } from '../../app/payment-methods.js';
import { DomainError } from '../../domain/errors.js';
import { webAddress } from '../../domain/web-address.js';
import { problemOf } from '../../errors.js';
import type { HttpDeps } from '../api/deps.js';
import { escapeHtml as escape, page } from './html.js';
import { pageContext } from './page-context.js';

const OUTCOMES = { confirm: 'ENROLLED', decline: 'DECLINED' } as const;

/** The merchant's context for the page's path, or undefined when the path names no merchant. */
async function contextOf(deps: HttpDeps, req: Request): Promise<{ ctx: RequestContext; methodId: string } | undefined> {
  const merchantId = String(req.params.merchant_id ?? '');
  const methodId = String(req.params.payment_method_id ?? '');
  // The enrollment page's address names its merchant: the handle is the merchant's id.
  const ctx = await pageContext(deps, [merchantId, methodId], () => Promise.resolve(merchantId));
  return ctx && { ctx, methodId };
}

function render(res: Response, status: number, method: DirectEnrolledPaymentMethod, note = ''): void {
  const waiting = method.status === 'READY_TO_ENROLL';
  const forms = waiting
    ? Object.entries(OUTCOMES)
        .map(([answer, outcome]) => `<form method="post"><input type="hidden" name="outcome" value="${outcome}"><button type="submit" data-${answer}>${answer === 'confirm' ? 'Authorize' : 'Decline'}</button></form>`)
        .join('\n')
    : '';
  res
    .status(status)
    .type('html')
    .send(
      page(
        `Enroll ${method.name}`,
        `<h1>Enroll ${escape(method.name)}</h1>
<p data-status>${escape(method.status)}</p>
<p>Switchyard sandbox: the payer authorizes the merchant to keep this ${escape(method.type)} on file, or declines.</p>
${note}${forms}`,
      ),
    );
}

const notFound = (res: Response) => res.status(404).type('html').send(page('Enrollment not found', '<h1>Enrollment not found</h1>'));

/**
 * The `redirect_url` of a direct enrollment that waits for the payer (a bank account such as
 * ACH_ENROLLMENT, which upstream answers READY_TO_ENROLL with a redirect). GET shows it; the
 * form posts the payer's answer, which ends the enrollment ENROLLED or DECLINED through the
 * same use case as the API, then sends the payer back to `callback_url` when there is one.
 */
export function hostedEnrollment(deps: HttpDeps): Router {
  const router = express.Router();
  const path = '/enrollments/:merchant_id/:payment_method_id';
  const show: RequestHandler = async (req, res, next) => {
    try {
      const found = await contextOf(deps, req);
      const method = found && (await getDirectEnrollment(found.ctx, found.methodId));
      if (!method) notFound(res);
      else render(res, 200, method);
    } catch (error) {
      next(error);
    }
  };
  const answer: RequestHandler = async (req, res, next) => {
    try {
      const found = await contextOf(deps, req);
      if (!found || !(await getDirectEnrollment(found.ctx, found.methodId))) {
        notFound(res);
        return;
      }
      const outcome = (req.body as { outcome?: unknown } | undefined)?.outcome;
      if (outcome !== 'ENROLLED' && outcome !== 'DECLINED') {
        res.status(400).type('html').send(page('Invalid answer', '<h1>Invalid answer</h1><p>outcome must be ENROLLED or DECLINED</p>'));
        return;
      }
      try {
        const settled = await settleEnrollment(found.ctx, found.methodId, outcome);
        const callback = webAddress(settled.callback_url);
        if (callback) res.redirect(303, callback.href);
        else render(res, 200, settled);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const method = await getDirectEnrollment(found.ctx, found.methodId);
        if (method) render(res, problemOf(error).status, method, `<p data-error>${escape(error.messages.join('; '))}</p>`);
        else notFound(res);
      }
    } catch (error) {
      next(error);
    }
  };
  router.get(path, show);
  router.post(path, express.urlencoded({ extended: false, limit: '1kb' }), answer);
  return router;
}
