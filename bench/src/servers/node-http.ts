/** The ceiling for Node: a bare node:http server that parses the same JSON and answers a comparable body. */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += String(c)));
  req.on('end', () => {
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const now = new Date().toISOString();
    const out = JSON.stringify({ id: randomUUID(), ...body, created_at: now, updated_at: now });
    res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': randomUUID() }).end(out);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
