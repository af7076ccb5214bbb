import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../errors.js';
import { clientErrorProblem, closingResponse } from './client-errors.js';

const parserError = (code: string, reason?: string) => Object.assign(new Error(code), { code, ...(reason ? { reason } : {}) });

describe('clientErrorProblem', () => {
  it('keeps the status Node would have answered, in the error shape', () => {
    expect(clientErrorProblem(parserError('HPE_HEADER_OVERFLOW'))).toMatchObject({ status: 431, code: 'REQUEST_TOO_LARGE' });
    expect(clientErrorProblem(parserError('HPE_CHUNK_EXTENSIONS_OVERFLOW'))).toMatchObject({ status: 413, code: 'REQUEST_TOO_LARGE' });
    expect(clientErrorProblem(parserError('ERR_HTTP_REQUEST_TIMEOUT'))).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
    expect(clientErrorProblem(parserError('HPE_INVALID_METHOD', 'Invalid method encountered'))).toMatchObject({
      status: 400,
      code: 'INVALID_REQUEST',
      messages: ['the request is not valid HTTP/1.1: Invalid method encountered'],
    });
  });
});

describe('closingResponse', () => {
  it('writes a whole HTTP/1.1 response that closes the connection, its length in bytes', () => {
    const text = closingResponse(new ApiProblem(400, 'INVALID_REQUEST', ['ñ']), 'req-1');
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toBe(`HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body as string)}\r\nx-request-id: req-1\r\nconnection: close`);
    expect(JSON.parse(body as string)).toEqual({ code: 'INVALID_REQUEST', messages: ['ñ'] });
  });
});

describe('the transport answers carry a request id, like every answer', () => {
  it('a 408 written on the socket has a fresh x-request-id of its own', () => {
    const ids = [1, 2].map(() => /\r\nx-request-id: ([0-9a-f-]{36})\r\n/.exec(closingResponse(clientErrorProblem(parserError('ERR_HTTP_REQUEST_TIMEOUT'))))?.[1]);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).not.toBe(ids[0]);
  });
});
