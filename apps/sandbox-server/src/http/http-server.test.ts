import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
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
