/**
 * The floor of the required stack: what Express 4, ts-rest and zod cost for the sandbox's two
 * measured routes when nothing is stored. It serves `POST /v1/customers` and `POST /v1/payments`
 * through the contract's own routes (ts-rest validates each request with the contract's zod
 * schemas, as the sandbox mounts them), on the sandbox's `createHttpServer`, and logs one pino
 * line per request as the sandbox does at its default level. Each answer has the size and shape of
 * the sandbox's own: a customer echoes its body with an id and times; a payment is the answer the
 * sandbox gave to one real payment, made in-process at start, with a new id and time. Nothing is
 * authenticated, journaled, stored, compressed or made idempotent: the gap from this server to the
 * sandbox is what those features cost, and the gap from bare node:http to this server is the
 * stack's own.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { pino } from 'pino';
import { createExpressEndpoints } from '@ts-rest/express';
import { contract } from '@switchyard/contract';
import { createHttpServer, createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';
import { fixtures } from '@switchyard/contract/fixtures';
import { DEMO_ACCOUNT, DEMO_KEYS } from '../demo-api.js';
import { paymentBody } from '../server.js';

/** The answer of one payment made through a real sandbox, in this process, then stopped. */
async function samplePayment(): Promise<Record<string, unknown>> {
  const sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'warn' });
  const url = await sandbox.start();
  try {
    const send = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: { ...DEMO_KEYS, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const { checkout_session } = await send('/v1/checkout/sessions', { ...fixtures.createCheckoutSession(), account_id: DEMO_ACCOUNT });
    return await send('/v1/payments', paymentBody(checkout_session as string), { 'x-idempotency-key': randomUUID() });
  } finally {
    await sandbox.stop();
  }
}

const payment = await samplePayment();
const logger = pino({ timestamp: pino.stdTimeFunctions.isoTime, base: { service: 'stack-floor' } });

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json());
app.get('/ready', (_req, res) => {
  res.json({ status: 'ready' });
});
const requestLog: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  const requestId = randomUUID();
  res.setHeader('x-request-id', requestId);
  res.on('finish', () => {
    logger.info({ requestId, method: req.method, path: req.path, status: res.statusCode, durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10 }, 'request');
  });
  next();
};
app.use(requestLog);
createExpressEndpoints(
  { customers: { create: contract.customers.create }, payments: { create: contract.payments.create } },
  {
    customers: {
      create: async ({ body }) => {
        const now = new Date().toISOString();
        return { status: 201, body: { id: randomUUID(), ...body, created_at: now, updated_at: now } as never };
      },
    },
    payments: {
      create: async () => ({ status: 201, body: { ...payment, id: randomUUID(), created_at: new Date().toISOString() } as never }),
    },
  },
  app,
  { responseValidation: false },
);

const server = createHttpServer(app);
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
