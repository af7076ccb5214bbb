import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { answerClientError, answerUnmetExpectation } from './client-errors.js';
import { DEFAULT_HTTP_TIMEOUTS, DEFAULT_OUTPUT_LIMITS, type HttpTimeouts, type OutputLimits } from '../../config.js';
import { OutputGuard } from './output-guard.js';

interface AppClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}
const classesOf = new WeakMap<Express, AppClasses>();

/**
 * Classes whose instances are born with the app's request and response prototypes, installed as
 * the app's own. Express's first middleware re-parents every request and response
 * (`Object.setPrototypeOf` to `app.request` and `app.response`); on objects Node has just built,
 * V8 then keeps about 5 KB a request alive through the next young-generation collection and
 * promotes it, and its scavenges grow from under 0.5 ms to 2–10 ms (measured: docs/benchmarks.md).
 * With these classes the re-parenting finds the prototype already in place and changes nothing.
 */
function classesFor(app: Express): AppClasses {
  const known = classesOf.get(app);
  if (known) return known;
  class AppRequest extends IncomingMessage {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  class AppResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  app.request = AppRequest.prototype as Express['request'];
  app.response = AppResponse.prototype as Express['response'];
  const classes = { IncomingMessage: AppRequest, ServerResponse: AppResponse };
  classesOf.set(app, classes);
  return classes;
}

/**
 * The server's 'timeout' listener, in place of Node's, which destroys a socket the moment its
 * keep-alive timer fires. The timers run before the event loop reads sockets: when the process
 * was busy past the time-out (a long request, a loaded machine), a client's next request may
 * already sit unread on the connection, and closing it then resets a request the server could
 * serve (ECONNRESET on the client). The decision waits until the reads of this turn of
 * the loop are done: a connection that received bytes meanwhile is serving a request and stays
 * open; an idle one closes as before.
 */
function closeIdleConnection(socket: Socket): void {
  const read = socket.bytesRead;
  setImmediate(() => {
    if (socket.bytesRead === read) socket.destroy();
  });
}

/**
 * The HTTP server for `app` (Express's `app.listen` builds one with Node's default classes and
 * time-outs: 60 s for headers, checked every 30 s, so an idle socket lived up to 90 s). Requests
 * Node's parser refuses, and unmet `Expect` headers, are answered in the API's error shape.
 */
export function createHttpServer(app: Express, timeouts: Partial<HttpTimeouts> = {}, outputLimits: OutputLimits = DEFAULT_OUTPUT_LIMITS): Server & { output: OutputGuard } {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = { ...DEFAULT_HTTP_TIMEOUTS, ...timeouts };
  if (headersTimeoutMs > requestTimeoutMs) throw new RangeError(`the headers time-out (${headersTimeoutMs} ms) must not exceed the request time-out (${requestTimeoutMs} ms)`);
  const server = createServer(
    {
      ...classesFor(app),
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // Node enforces the two time-outs above on this tick: a connection outlives them by at most a tick.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
    },
    app,
  );
  server.on('clientError', answerClientError);
  server.on('timeout', closeIdleConnection);
  server.on('checkExpectation', answerUnmetExpectation);
  const output = new OutputGuard(outputLimits);
  // Once the response is ended ('prefinish': its bytes are queued, not yet taken; 'finish' waits
  // for the client, which may never come). The socket is taken now: a keep-alive response lets go of it.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => res.once('prefinish', () => output.watch(req.socket)));
  return Object.assign(server, { output });
}
