import express, { type Express, type NextFunction, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { IDEMPOTENCY_HEADER } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { authenticate } from './api/auth.js';
import type { HttpDeps } from './api/deps.js';
import { maskCardNumbers } from './journal/journal-mask.js';
import { sendJson } from './server/send-json.js';
import { errorHandler, requestValidationErrorHandler, validationProblem } from './server/errors.js';
import { hostedCheckout } from './pages/hosted-checkout.js';
import { denyFraming } from './server/page-security.js';
import { payerAction, payerPage } from './pages/payer-page.js';
import { hostedEnrollment } from './pages/hosted-enrollment.js';
import { inspector } from './pages/inspector/router.js';
import { docsFolder, docsHandler, OPENAPI_PATH, openapiHandler, serviceIndexHandler } from './pages/service-index.js';
import { pageAssets } from './pages/page-assets.js';
import { jsonBody } from './api/json-body.js';
import { requireStorableText } from './api/request-text.js';
import { parseSize } from '../config.js';
import { isBankingRoute, sendProblem } from './server/problem-response.js';
import { assignRequestId } from './server/request-id.js';
import { matchRoute, routeTable, type RouteMatcher } from './api/route-table.js';
import { matchedRoute } from './server/locals.js';
import { API_ROUTERS, routeDispatch } from './api/route-dispatch.js';
import { journalRecorder } from './journal/journal-recorder.js';
import { faults } from './api/faults.js';
import { rerunWhenMerchantChanged } from './api/stale-merchant.js';

export interface AppOptions extends HttpDeps {
  logger: Logger;
  /** Validate every response against the contract (on in tests). */
  responseValidation: boolean;
  /** Largest accepted request body, e.g. `6mb` (dispute evidence is up to 1 MB per file, base64). */
  bodyLimit: string;
  /** What `GET /` names as the store: `memory` or `postgresql`. */
  storeKind: string;
}

/**
 * Gives every response its request id and logs it when it finishes (one middleware: it runs on
 * every request). The duration is rounded to a tenth of a millisecond; an error answer's line
 * carries its code.
 */
function requestTracking(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const id = assignRequestId(req, res);
    res.on('finish', () => {
      logger.info(
        {
          requestId: id,
          method: req.method,
          // A path may hold what a client put in it by mistake (a card number as an id).
          path: maskCardNumbers(req.path),
          status: res.statusCode,
          durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
          errorCode: res.locals.errorCode,
          merchantId: res.locals.merchant?.id,
        },
        'request',
      );
    });
    next();
  };
}

/**
 * Runs before authentication and before the body is read: unknown paths answer 404, a known
 * path with the wrong method 405, and an idempotent route without its key 400 MISSING_PARAMETERS
 * (upstream rejects a missing key before reading the body).
 */
function routeGate(table: RouteMatcher[]): RequestHandler {
  return (req, res, next) => {
    const { route, allowed } = matchRoute(table, req.method, req.path);
    if (!route) {
      if (allowed.length > 0) {
        res.setHeader('allow', allowed.join(', '));
        sendProblem(res, new DomainError('UNSUPPORTED_METHOD', [`${req.method} is not supported on ${req.path}; use ${allowed.join(' or ')}`]));
      } else {
        sendProblem(res, new DomainError('NOT_FOUND', [`no route for ${req.method} ${req.path}`]));
      }
      return;
    }
    res.locals.route = route;
    next();
  };
}

/**
 * A missing key is bad input like a malformed one: 400 MISSING_PARAMETERS, and on the banking
 * family its one validation code, VALIDATION_ERROR with `http_code` (upstream's Create Entity (Banking Connectivity)
 * documents no other 400 code; spec §5 leaves a missing key's answer unshown), the code a non-UUID
 * key gets there too.
 */
function requireIdempotencyKey(): RequestHandler {
  return (req, res, next) => {
    const route = matchedRoute(res);
    if (route.meta.idempotent && !req.header(IDEMPOTENCY_HEADER)) {
      sendProblem(res, validationProblem(res, [`the ${IDEMPOTENCY_HEADER} header is required on ${route.meta.operationId}`], isBankingRoute(res) ? undefined : 'MISSING_PARAMETERS'));
      return;
    }
    next();
  };
}

const isApiPath = (path: string) => path.startsWith('/v1/') || path.startsWith('/sandbox/');

export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.response.json = sendJson;
  const table = routeTable(Object.values(API_ROUTERS));

  app.use(requestTracking(options.logger));
  app.use(journalRecorder(options.journal));

  const gate = routeGate(table);
  const auth = authenticate(options.store);
  const keyCheck = requireIdempotencyKey();
  const fault = faults({ store: options.store });
  const limit = parseSize(options.bodyLimit);
  if (limit === undefined) throw new Error(`body limit "${options.bodyLimit}" is not a size such as 6mb`);
  const json = jsonBody(limit);
  const dispatch = routeDispatch(options, { responseValidation: options.responseValidation, requestValidationErrorHandler });
  const storable = requireStorableText();
  const readBody: RequestHandler = (req, res, next) => json(req, res, (err?: unknown) => (err ? next(err) : storable(req, res, next)));
  app.use((req, res, next) => {
    if (!isApiPath(req.path)) {
      next();
      return;
    }
    gate(req, res, () => {
      if (matchedRoute(res).meta.auth === 'none') {
        readBody(req, res, (err?: unknown) => (err ? next(err) : dispatch(req, res, next)));
        return;
      }
      // The body is read once; a second run of the steps (a merchant record that was not
      // current) meets the same outcome. Reading does not depend on the merchant, faults do.
      let body: { error: unknown } | undefined;
      const bodyRead = (then: NextFunction) => {
        if (body) then(body.error);
        else readBody(req, res, (error?: unknown) => then((body = { error }).error));
      };
      const steps = (done: NextFunction) => fault(req, res, (err?: unknown) => (err ? done(err) : bodyRead((bad?: unknown) => (bad ? done(bad) : dispatch(req, res, done)))));
      auth(req, res, (err?: unknown) => (err ? next(err) : keyCheck(req, res, () => rerunWhenMerchantChanged(options.store, res, next, steps))));
    });
  });

  // After the API middleware, which answers every /v1 and /sandbox path itself.
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', async (_req, res, next) => {
    try {
      const ready = await options.store.ready();
      res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
    } catch (error) {
      next(error);
    }
  });
  // The hosted checkout of links and sessions; its forms post a bounded urlencoded body (see hosted-checkout.ts).
  app.use(denyFraming);
  app.use(hostedCheckout(options));
  // The page a waiting payment's redirect_url opens; its form posts the payer's choice (a few bytes).
  app.get('/pay/:code', payerPage(options));
  app.post('/pay/:code', express.urlencoded({ extended: false, limit: '1kb' }), payerAction(options));
  app.use(hostedEnrollment(options));
  app.use(inspector());
  // Unauthenticated, and outside /v1 and /sandbox, so no route of the API can take these paths.
  const docs = docsFolder();
  app.get('/', serviceIndexHandler(options.storeKind, docs !== undefined));
  app.get(OPENAPI_PATH, openapiHandler());
  app.get('/docs/:name', docsHandler(docs));
  app.use(pageAssets());

  app.use((req, res) => {
    sendProblem(res, new DomainError('NOT_FOUND', [`no route for ${req.method} ${req.path}`]));
  });
  app.use(errorHandler(options.logger));
  return app;
}
