/**
 * A plain HTTP server for a test, on an ephemeral port of 127.0.0.1.
 *
 * It never closes an idle connection itself: only the client does. A server that closes idle
 * connections on a timer (Node's default is 5 s) races every client that pools them, fetch
 * included: a request sent on a pooled connection just as the server's timer fires is lost
 * ("other side closed", ECONNRESET), and a loaded machine makes that moment likely, because the
 * client's own idle timer, meant to close first, fires late. A client that closes its connection
 * knows it did and opens a new one, so leaving the close to the client removes the race.
 * `close()` still ends idle connections at once (Node's `server.close` does so since Node 19);
 * `cut()` also ends the busy ones, for a server that holds requests it never answers.
 */
import { createServer } from 'node:http';

/**
 * @param {import('node:http').RequestListener} handler
 * @returns {Promise<import('./test-server.js').TestServer>}
 */
export async function listen(handler) {
  const server = createServer(handler);
  // 0 turns Node's keep-alive timer off (and sends no `Keep-Alive: timeout` hint).
  server.keepAliveTimeout = 0;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the test server has no TCP address');
  /** @type {() => Promise<void>} */
  const close = () => new Promise((resolve) => server.close(() => resolve(undefined)));
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    close,
    cut: () => {
      const closed = close();
      server.closeAllConnections();
      return closed;
    },
  };
}
