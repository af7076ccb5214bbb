import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { RequestHandler } from 'express';
import { describeSize } from '../../config.js';
import { DomainError } from '../../domain/errors.js';
import { validationProblem } from '../server/errors.js';

/** `application/json` and any `application/*+json`, with or without parameters. */
const JSON_MEDIA_TYPE = /^application\/(?:json|[^/;\s]+\+json)\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/**
 * Deepest nesting of objects and arrays a body may have. The contract's deepest request field
 * is a handful of levels down; free-form objects beyond that are echoed back, and JSON.stringify
 * (or PostgreSQL's jsonb) fails on nesting thousands deep (docs/sandbox-errors.md, "Bad input").
 */
export const MAX_JSON_DEPTH = 32;

/**
 * The most structural tokens (brackets and commas outside strings) a body may hold. JSON.parse
 * holds the event loop in proportion to the values it builds, far more than to the bytes: 1.9
 * million `{}` (5.7 MB, 3.8 million tokens) took 3.5 s here, 100,000 of them (the bound) about 20 ms alone
 * and under 100 ms with the machine loaded. Every
 * value but a container's first follows a comma and every container opens with a bracket, so the
 * count bounds the values. The API's largest bodies hold a few hundred; a snapshot import the most
 * (a few thousand records of tens of values each).
 */
export const MAX_JSON_TOKENS = 200_000;

/**
 * What makes a body too costly to parse, or undefined: nesting deeper than `maxDepth`, or more than
 * `maxTokens` brackets and commas outside strings. One pass, no allocation.
 */
export function costlyJson(text: string, maxDepth: number, maxTokens: number): 'deep' | 'many' | undefined {
  let depth = 0;
  let tokens = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      tokens += 1;
      if (depth > maxDepth) return 'deep';
      if (tokens > maxTokens) return 'many';
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
    else if (c === 0x2c && (tokens += 1) > maxTokens) return 'many';
  }
  return undefined;
}

const tooLargeFor = (limit: number) => () =>
  new DomainError('REQUEST_TOO_LARGE', [`the request body is larger than the ${describeSize(limit)} the sandbox accepts; SANDBOX_BODY_LIMIT raises the limit`]);

/** A 400 for a body that cannot be read as JSON: bad input like any other, so VALIDATION_ERROR on the banking family (validationProblem). */
type Invalid = (message: string) => DomainError;

export const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

function decoded(req: IncomingMessage, invalid: Invalid): Readable {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return req;
  if (encoding === 'gzip') return req.pipe(createGunzip());
  if (encoding === 'deflate') return req.pipe(createInflate());
  throw invalid(`unsupported content encoding "${encoding}"; send identity, gzip or deflate`);
}

/** Reads the whole body, failing as soon as it passes `limit` bytes (after decompression). */
function readAll(stream: Readable, limit: number, invalid: Invalid, tooLarge: () => DomainError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (problem: () => DomainError) => {
      if (settled) return;
      settled = true;
      stream.off('data', onData);
      reject(problem());
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(tooLarge);
      else chunks.push(chunk);
    };
    stream.on('data', onData);
    stream.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    });
    stream.once('error', (error: Error) => fail(() => invalid(`the request body could not be read: ${error.message}`)));
    // A client that goes away mid-body: 'close' without 'end'.
    stream.once('close', () => fail(() => invalid('the request body ended early')));
  });
}

/**
 * The JSON body reader of the API routes, in place of express.json(): the same rules (JSON media
 * types only, UTF-8, gzip or deflate, a size limit, an empty body is `{}`), each failure a
 * DomainError answered in the API's error shape, and none of body-parser's
 * content-type, type-is, iconv and raw-body work, which took about 10 % of a small request's
 * CPU (docs/benchmarks.md). A body in another media type is left unread, as `{}`: the contract
 * then names the missing fields. Unlike express.json's `strict`, any JSON value is read: `"hi"`
 * or `null` is valid JSON, so the contract names it (`body: must be object, received string`)
 * as it names an array; "not valid JSON" is for text that is not.
 */
export function jsonBody(limit: number): RequestHandler {
  const tooLarge = tooLargeFor(limit);
  return (req, res, next) => {
    const invalid: Invalid = (message) => validationProblem(res, [message]);
    req.body = {};
    if (!hasBody(req)) {
      next();
      return;
    }
    const type = req.headers['content-type'] ?? '';
    if (!JSON_MEDIA_TYPE.test(type)) {
      next();
      return;
    }
    const charset = CHARSET.exec(type)?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      next(invalid(`unsupported charset "${charset}"; send UTF-8`));
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit && req.headers['content-encoding'] === undefined) {
      next(tooLarge());
      return;
    }
    let source: Readable;
    try {
      source = decoded(req, invalid);
    } catch (error) {
      next(error);
      return;
    }
    readAll(source, limit, invalid, tooLarge).then((buffer) => {
      // toString would turn each bad byte into U+FFFD and store that silently.
      if (!isUtf8(buffer)) {
        next(invalid('the request body is not valid UTF-8'));
        return;
      }
      const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
      if (text.length === 0) {
        next();
        return;
      }
      const costly = costlyJson(text, MAX_JSON_DEPTH, MAX_JSON_TOKENS);
      if (costly === 'deep') {
        next(invalid(`the request body nests objects and arrays more than ${MAX_JSON_DEPTH} deep`));
        return;
      }
      if (costly === 'many') {
        next(new DomainError('REQUEST_TOO_LARGE', [`the request body holds more than ${MAX_JSON_TOKENS} JSON values and containers (brackets and commas), the most the sandbox parses in one request`]));
        return;
      }
      try {
        req.body = JSON.parse(text);
      } catch {
        next(invalid('the request body is not valid JSON'));
        return;
      }
      next();
    }, next);
  };
}
