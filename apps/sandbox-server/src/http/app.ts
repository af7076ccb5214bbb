import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Logger } from 'pino';
import { contract, IDEMPOTENCY_HEADER, sandboxContract, type Domain } from '@switchyard/contract';
import { ApiProblem } from '../errors.js';
import { authenticate } from './auth.js';
import type { HttpDeps } from './deps.js';
import type { Mount, MountOptions } from './mount.js';
import { sendJson } from './send-json.js';
import { errorHandler, requestValidationErrorHandler } from './errors.js';
import { hostedCheckout } from './hosted-checkout.js';
import { OPENAPI_PATH, openapiHandler, serviceIndexHandler } from './service-index.js';
import { jsonBody } from './json-body.js';
import { requireStorableText } from './request-text.js';
import { parseSize } from '../config.js';
import { sendProblem } from './problem-response.js';
import { assignRequestId } from './request-id.js';
import { matchRoute, routeTable } from './route-table.js';
import { checkoutRoutes } from './routes/checkout.js';
import { customersRoutes } from './routes/customers.js';
import { paymentsRoutes } from './routes/payments.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { paymentMethodsRoutes } from './routes/payment-methods.js';
import { subscriptionsRoutes } from './routes/subscriptions.js';
import { marketplaceRoutes } from './routes/marketplace.js';
import { bankingRoutes } from './routes/banking.js';
import { webhooksRoutes } from './routes/webhooks.js';

export interface AppOptions extends HttpDeps {
  logger: Logger;
  /** Validate every response against the contract (on in tests). */
  responseValidation: boolean;
  /** Largest accepted request body, e.g. `6mb` (dispute evidence is up to 1 MB per file, base64). */
  bodyLimit: string;
  /** What `GET /` names as the store: `memory` or `postgresql`. */
  storeKind: string;
}

/** Every /v1 domain of the contract, and the control API. */
const MOUNTED_ROUTERS = [...Object.values(contract), sandboxContract];

/** Gives every response its request id and logs it when it finishes (one middleware: it runs on every request). */
function requestTracking(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const id = assignRequestId(req, res);
    res.on('finish', () => {
      logger.info(
        {
          requestId: id,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          merchantId: res.locals.merchant?.id,
        },
        'request',
      );
    });
    next();
  };
}

type RouteTable = ReturnType<typeof routeTable>;

/**
 * Runs before authentication and before the body is read: unknown paths answer 404, a known
 * path with the wrong method 405, and an idempotent route without its key 400 MISSING_PARAMETERS
 * (upstream rejects a missing key before reading the body).
 */
function routeGate(table: RouteTable): RequestHandler {
  return (req, res, next) => {
    const { route, allowed } = matchRoute(table, req.method, req.path);
    if (!route) {
      if (allowed.length > 0) {
        res.setHeader('allow', allowed.join(', '));
        sendProblem(res, new ApiProblem(405, 'UNSUPPORTED_METHOD', [`${req.method} is not supported on ${req.path}; use ${allowed.join(' or ')}`]));
      } else {
        sendProblem(res, new ApiProblem(404, 'NOT_FOUND', [`no route for ${req.method} ${req.path}`]));
      }
      return;
    }
    res.locals.route = route;
    next();
  };
}

function requireIdempotencyKey(): RequestHandler {
  return (req, res, next) => {
    const route = res.locals.route as RouteTable[number];
    if (route.meta.idempotent && !req.header(IDEMPOTENCY_HEADER)) {
      sendProblem(res, new ApiProblem(400, 'MISSING_PARAMETERS', [`the ${IDEMPOTENCY_HEADER} header is required on ${route.meta.operationId}`]));
      return;
    }
    next();
  };
}

const isApiPath = (path: string) => path.startsWith('/v1/') || path.startsWith('/sandbox/');

/** Each domain's ts-rest endpoints. The record is exhaustive, so a new domain cannot go unmounted. */
const DOMAIN_ROUTES: Record<Domain, (deps: HttpDeps) => Mount> = {
  customers: customersRoutes,
  checkout: checkoutRoutes,
  'payment-methods': paymentMethodsRoutes,
  payments: paymentsRoutes,
  subscriptions: subscriptionsRoutes,
  marketplace: marketplaceRoutes,
  banking: bankingRoutes,
  webhooks: webhooksRoutes,
  sandbox: sandboxRoutes,
};

/**
 * One Express router per domain, entered straight from the route the gate matched: a request
 * walks its own domain's few routes instead of every route of the API in turn.
 */
function domainDispatch(options: AppOptions, mountOptions: MountOptions): RequestHandler {
  const routers = new Map<Domain, Router>();
  for (const [domain, routes] of Object.entries(DOMAIN_ROUTES) as [Domain, (deps: HttpDeps) => Mount][]) {
    const router = express.Router();
    routes(options)(router, mountOptions);
    routers.set(domain, router);
  }
  return (req, res, next) => {
    const route = res.locals.route as RouteTable[number] | undefined;
    const router = route && routers.get(route.meta.domain);
    if (router) router(req, res, next);
    else next();
  };
}

export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.response.json = sendJson;
  const table = routeTable(MOUNTED_ROUTERS);

  app.use(requestTracking(options.logger));

  const gate = routeGate(table);
  const auth = authenticate(options.store);
  const keyCheck = requireIdempotencyKey();
  const limit = parseSize(options.bodyLimit);
  if (limit === undefined) throw new Error(`body limit "${options.bodyLimit}" is not a size such as 6mb`);
  const json = jsonBody(limit);
  const dispatch = domainDispatch(options, { responseValidation: options.responseValidation, requestValidationErrorHandler });
  const storable = requireStorableText();
  const parseAndDispatch: RequestHandler = (req, res, next) =>
    json(req, res, (err?: unknown) => (err ? next(err) : storable(req, res, (bad?: unknown) => (bad ? next(bad) : dispatch(req, res, next)))));
  app.use((req, res, next) => {
    if (!isApiPath(req.path)) {
      next();
      return;
    }
    gate(req, res, () => {
      if ((res.locals.route as RouteTable[number]).meta.operationId === 'sandboxCreateMerchant') {
        parseAndDispatch(req, res, next);
        return;
      }
      auth(req, res, (err?: unknown) => (err ? next(err) : keyCheck(req, res, () => parseAndDispatch(req, res, next))));
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
  app.get('/checkout/links/:code', hostedCheckout(options.store, options.clock));
  // Unauthenticated, and outside /v1 and /sandbox, so no route of the API can take these paths.
  app.get('/', serviceIndexHandler(options.storeKind));
  app.get(OPENAPI_PATH, openapiHandler());

  app.use((req, res) => {
    sendProblem(res, new ApiProblem(404, 'NOT_FOUND', [`no route for ${req.method} ${req.path}`]));
  });
  app.use(errorHandler(options.logger));
  return app;
}
