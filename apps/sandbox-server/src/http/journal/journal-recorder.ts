import type { RequestHandler } from 'express';
import { IDEMPOTENCY_HEADER, type JournalEntry } from '@switchyard/contract';
import { REPLAYED_HEADER } from '../api/deps.js';
import { hasBody } from '../api/json-body.js';
import { maskBody, maskCardNumbers, tooLargeToKeep } from './journal-mask.js';
import type { RequestJournal } from './journal.js';
import { SENT_BODY, type JournaledResponse } from '../server/send-json.js';

/** The most memory each body of a journal entry may take, estimated (docs/sandbox-testing.md, "Request journal"). */
export const JOURNAL_BODY_BYTES = 24 * 1024;
/** Idempotency keys are the client's text: a journal entry keeps at most this much of one. */
const MAX_KEY_CHARS = 255;

let sequence = 0;

/**
 * The status a journal entry gives a request whose connection closed before its response was
 * complete (a client gone, a reset, a drop, a stall): the client got no answer it could use, and
 * whatever the sandbox had decided to answer was never delivered.
 */
export const NO_RESPONSE_STATUS = 0;

/**
 * Journals every `/v1` request of an authenticated merchant when its connection is done with it:
 * after the whole response went out, with its status and body, or when the connection closed
 * first, with `NO_RESPONSE_STATUS` and no response body. Requests refused before authentication
 * name no merchant and are not journaled; nor are the control API's, so reading the journal or a
 * snapshot does not fill it.
 */
export function journalRecorder(journal: RequestJournal): RequestHandler {
  return (req, res: JournaledResponse, next) => {
    if (!journal.enabled || !req.path.startsWith('/v1/')) {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    const at = new Date().toISOString();
    res[SENT_BODY] = undefined;
    res.once('close', () => {
      const merchant = res.locals.merchant;
      if (!merchant) return;
      // A response that never finished may have a status and a body set all the same (a fault
      // swallowed the write, the socket closed under it): neither reached the client.
      const finished = res.writableFinished;
      const sent = finished ? res[SENT_BODY] : undefined;
      const key = req.header(IDEMPOTENCY_HEADER);
      const entry: JournalEntry = {
        id: `jrn_${(sequence += 1)}`,
        at,
        method: req.method,
        path: maskCardNumbers(req.path),
        operation_id: res.locals.route?.meta.operationId ?? null,
        status: finished ? res.statusCode : NO_RESPONSE_STATUS,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
        request_id: res.locals.requestId ?? '',
        idempotency_key: key === undefined ? null : key.slice(0, MAX_KEY_CHARS),
        replayed: res.getHeader(REPLAYED_HEADER) === 'true',
        fault: res.locals.fault ?? null,
        request_body: !hasBody(req) || req.body === undefined ? null : maskBody(req.body, JOURNAL_BODY_BYTES),
        response_body: sent === undefined ? null : sent.bytes > JOURNAL_BODY_BYTES ? tooLargeToKeep(JOURNAL_BODY_BYTES) : maskBody(sent.body, JOURNAL_BODY_BYTES),
      };
      journal.record(merchant.id, entry);
    });
    next();
  };
}
