import { connect, type AddressInfo, type Socket } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '@switchyard/contract';
import type { HttpTimeouts } from '../../config.js';
import { createHttpServer } from './http-server.js';

const servers: ReturnType<typeof createHttpServer>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(server: ReturnType<typeof createHttpServer>): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('createHttpServer', () => {
  it('builds requests and responses that already have the app\'s prototypes, before Express sees them', async () => {
    const app = express();
    app.get('/', (req, res) => {
      res.json({ path: req.path, query: req.query, sameApp: req.app === app });
    });
    const server = createHttpServer(app);
    const seen: boolean[] = [];
    server.prependListener('request', (req, res) => {
      seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
    });
    const res = await fetch(`${await listen(server)}/?a=1`);
    expect(await res.json()).toEqual({ path: '/', query: { a: '1' }, sameApp: true });
    expect(seen).toEqual([true, true]);
  });

  it('keeps the app\'s own request and response methods, added before or after', async () => {
    const app = express();
    app.response.json = function json(this: express.Response, body: unknown) {
      return this.type('json').end(`before:${JSON.stringify(body)}`);
    };
    const server = createHttpServer(app);
    (app.request as { greeting?: () => string }).greeting = () => 'after';
    app.get('/', (req, res) => {
      res.json((req as { greeting?: () => string }).greeting?.());
    });
    expect(await (await fetch(await listen(server))).text()).toBe('before:"after"');
  });

  it('gives every server of one app the same classes', async () => {
    const app = express();
    app.get('/', (_req, res) => {
      res.send('ok');
    });
    createHttpServer(app);
    const request = app.request;
    const second = createHttpServer(app);
    expect(app.request).toBe(request);
    expect(await (await fetch(await listen(second))).text()).toBe('ok');
  });
});

/** A raw connection: what it receives until the server closes it. */
function rawConnection(url: string): { socket: Socket; closed: Promise<string> } {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += String(chunk)));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return { socket, closed };
}

/** Status and JSON body of a raw HTTP/1.1 answer. */
function parseAnswer(text: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head.toLowerCase(), body: JSON.parse(body) as unknown };
}

async function apiServer(timeouts: Partial<HttpTimeouts> = {}): Promise<string> {
  const app = express();
  app.use(express.json());
  app.post('/', (req, res) => {
    res.json({ received: req.body as unknown });
  });
  return listen(createHttpServer(app, timeouts));
}

describe('time-outs', () => {
  it('closes a connection that never sends a byte once the headers time-out passes, with a 408 in the error shape', async () => {
    const url = await apiServer({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { closed } = rawConnection(url);
    const answer = parseAnswer(await closed);
    expect(answer.status).toBe(408);
    expect(ApiError.parse(answer.body)).toEqual({ code: 'REQUEST_TIMEOUT', messages: [expect.stringContaining('did not arrive in time')] });
  });

  it('closes a connection whose body trickles in once the request time-out passes', async () => {
    const url = await apiServer({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { socket, closed } = rawConnection(url);
    socket.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{');
    const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
    const answer = parseAnswer(await closed);
    clearInterval(trickle);
    expect(answer).toMatchObject({ status: 408, body: { code: 'REQUEST_TIMEOUT' } });
  });

  it('closes an idle keep-alive connection after its time-out, itself, and only once the answer is out', async () => {
    const keepAliveTimeoutMs = 200;
    const url = await apiServer({ keepAliveTimeoutMs });
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let received = '';
    let answeredAt: number | undefined;
    socket.on('data', (chunk: Buffer) => {
      received += String(chunk);
      if (answeredAt === undefined && received.includes('"received":{}')) answeredAt = performance.now();
    });
    // 'end' is the server's FIN: this side never ends the connection.
    const serverEnded = new Promise<number>((resolve) => socket.once('end', () => resolve(performance.now())));
    socket.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
    const endedAt = await serverEnded;
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\nconnection: keep-alive\r\n[\s\S]*\r\n\r\n\{"received":\{\}\}$/i);
    if (answeredAt === undefined) throw new Error('the connection ended before the answer');
    // Kept open, idle, for the time-out before the server closed it (a lower bound only: a busy
    // machine makes the gap longer, never shorter; timers may fire a millisecond early).
    expect(endedAt - answeredAt).toBeGreaterThanOrEqual(keepAliveTimeoutMs - 5);
  });

  it('refuses a headers time-out above the request time-out', () => {
    expect(() => createHttpServer(express(), { headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).toThrow(RangeError);
  });
});

describe('requests Node\'s parser refuses', () => {
  it('answers oversized headers 431 in the error shape', async () => {
    const { socket, closed } = rawConnection(await apiServer());
    socket.write(`GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const answer = parseAnswer(await closed);
    expect(answer.status).toBe(431);
    expect(answer.headers).toContain('content-type: application/json');
    expect(ApiError.parse(answer.body)).toEqual({ code: 'REQUEST_TOO_LARGE', messages: ['the request headers are larger than the sandbox accepts'] });
  });

  it('answers conflicting lengths and malformed requests 400 in the error shape, naming the fault', async () => {
    const url = await apiServer();
    for (const request of [
      'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n{}',
      'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}',
      'GET / HTTP/1.1\r\nbad header\r\n\r\n',
    ]) {
      const { socket, closed } = rawConnection(url);
      socket.write(request);
      const answer = parseAnswer(await closed);
      expect(answer.status).toBe(400);
      expect(ApiError.parse(answer.body)).toEqual({ code: 'INVALID_REQUEST', messages: [expect.stringMatching(/^the request is not valid HTTP\/1\.1: ./)] });
    }
  });

  it('answers an Expect other than 100-continue 417 in the error shape', async () => {
    // fetch refuses to send an Expect header at all.
    const { socket, closed } = rawConnection(await apiServer());
    socket.write('POST / HTTP/1.1\r\nhost: x\r\nexpect: teapot\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
    const answer = parseAnswer(await closed);
    expect(answer.status).toBe(417);
    expect(ApiError.parse(answer.body)).toEqual({ code: 'INVALID_REQUEST', messages: ['the Expect header "teapot" is not supported; send 100-continue or none'] });
  });
});
