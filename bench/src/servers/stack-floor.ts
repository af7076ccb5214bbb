/**
 * The floor of the required stack: what Express 4, ts-rest and zod cost for the sandbox's two
 * measured routes when nothing is stored. It serves `POST /v1/customers` and `POST /v1/payments`
 * through the contract's own routes (ts-rest validates each request with the contract's zod
 * schemas, as the sandbox mounts them), on the sandbox's `createHttpServer`. It reads bodies and
 * writes answers as cheaply as the sandbox does (one JSON.parse of the collected body; one
 * JSON.stringify and `end`, where Express's `res.json` would re-parse the content type), and logs
 * one pino line per request to stdout through an asynchronous destination that writes in batches,
 * as the sandbox does at its default level; `--log-level warn` drops that line. Each answer has the
 * size and shape of the sandbox's own: a customer echoes its body with an id and times; a payment is
 * the answer the sandbox gave to one real payment, made in-process at start, with a new id and
 * time. Nothing is authenticated, journaled, stored, compressed or made idempotent: the gap from
 * this server to the sandbox is what those features cost, and the gap from bare node:http to this
 * server is the stack's own.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import express, { type RequestHandler, type Response } from 'express';
import { destination, pino } from 'pino';
import { createExpressEndpoints } from '@ts-rest/express';
import { contract } from '@switchyard/contract';
import { createHttpServer, createSandbox, loadConfig, type SandboxConfig } from '@switchyard/sandbox-server';
import { paymentBody, post, sessions } from '../demo-api.js';

const { values } = parseArgs({ options: { 'log-level': { type: 'string' } } });

/** The answer of one payment made through a real sandbox, in this process, then stopped. */
async function samplePayment(): Promise<Record<string, unknown>> {
  const sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'warn' });
  const url = await sandbox.start();
  try {
    const [session] = await sessions(url, 1);
    return await post<Record<string, unknown>>(url, '/v1/payments', paymentBody(session as string), { 'x-idempotency-key': randomUUID() });
  } finally {
    await sandbox.stop();
  }
}

const payment = await samplePayment();
// Batched and asynchronous, like the sandbox's stdout: pino's default destination writes each line at once.
const logger = pino({ level: values['log-level'] ?? 'info', timestamp: pino.stdTimeFunctions.isoTime, base: { service: 'stack-floor' } }, destination({ dest: 1, sync: false, minLength: 4096 }));

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.response.json = function json(this: Response, body: unknown) {
  const text = JSON.stringify(body);
  this.setHeader('content-type', 'application/json; charset=utf-8');
  this.setHeader('content-length', Buffer.byteLength(text));
  this.end(text);
  return this;
};
const jsonBody: RequestHandler = (req, _res, next) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      req.body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
      next();
    } catch (error) {
      next(error);
    }
  });
};
const requestLog: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  const requestId = randomUUID();
  res.setHeader('x-request-id', requestId);
  res.on('finish', () => {
    logger.info({ requestId, method: req.method, path: req.path, status: res.statusCode, durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10 }, 'request');
  });
  next();
};
app.get('/ready', (_req, res) => {
  res.json({ status: 'ready' });
});
app.use(requestLog, jsonBody);
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
