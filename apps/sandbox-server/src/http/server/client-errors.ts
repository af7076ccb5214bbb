import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { DomainError } from '../../domain/errors.js';
import { ApiProblem, problemOf } from '../../errors.js';
import { REQUEST_ID, requestIdFor } from './request-id.js';

/** What Node's HTTP parser refused, as an answer in the API's error shape. */
export function clientErrorProblem(error: Error & { code?: string; reason?: string }): ApiProblem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiProblem(431, 'REQUEST_TOO_LARGE', ['the request headers are larger than the sandbox accepts']);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return problemOf(new DomainError('REQUEST_TOO_LARGE', ['the chunk extensions of the request body are larger than the sandbox accepts']));
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problemOf(new DomainError('REQUEST_TIMEOUT', ['the request did not arrive in time; send its headers and body without pauses']));
    default:
      // llhttp's reason names the fault ("Content-Length can't be present with Transfer-Encoding").
      return problemOf(new DomainError('INVALID_REQUEST', [`the request is not valid HTTP/1.1${error.reason ? `: ${error.reason}` : ''}`]));
  }
}

/**
 * A whole HTTP/1.1 response that closes the connection: the parser cannot read past a fault. It
 * carries a request id like every answer; a fresh one, since the request's headers were not read.
 */
export function closingResponse(problem: ApiProblem, requestId: string = requestIdFor()): string {
  const body = JSON.stringify(problem.toBody());
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `${REQUEST_ID}: ${requestId}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The server's 'clientError' listener, in place of Node's, which answers 400, 408 or 431 with an
 * empty body. Like Node's, it writes only while no response has started on the socket, so a
 * response already under way is never corrupted (the socket's in-flight response is the same
 * private field Node's own handler reads).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    // Node's HTTP sockets allow half-open connections: without the destroy, a client that keeps
    // its side open would keep the socket.
    socket.end(closingResponse(clientErrorProblem(error)), () => socket.destroy());
    return;
  }
  socket.destroy();
}

/** The server's 'checkExpectation' listener: an `Expect` other than `100-continue` answers 417 in the error shape. */
export function answerUnmetExpectation(req: IncomingMessage, res: ServerResponse): void {
  const problem = new ApiProblem(417, 'INVALID_REQUEST', [`the Expect header "${String(req.headers.expect).slice(0, 40)}" is not supported; send 100-continue or none`]);
  const body = JSON.stringify(problem.toBody());
  res.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), [REQUEST_ID]: requestIdFor(req.headers), connection: 'close' });
  res.end(body);
}
