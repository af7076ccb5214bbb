/**
 * The ceiling for our framework: Express 4 with its JSON parser answering the same body, on the
 * server `app.listen` builds (`createServer(app)`). With the argument `server-classes` it runs on
 * the sandbox's `createHttpServer` instead, which shows what that server alone is worth to any
 * Express app.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHttpServer } from '@switchyard/sandbox-server';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json());
app.get('/ready', (_req, res) => {
  res.json({ status: 'ready' });
});
app.post('/v1/customers', (req, res) => {
  const now = new Date().toISOString();
  res.setHeader('x-request-id', randomUUID());
  res.status(201).json({ id: randomUUID(), ...(req.body as object), created_at: now, updated_at: now });
});
const server: Server = process.argv.includes('server-classes') ? createHttpServer(app) : createServer(app);
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
