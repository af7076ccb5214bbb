import { writeSync } from 'node:fs';
import { destination as fileDestination, pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';
import type { LogFormat } from './config.js';
import { prettyDestination } from './log-format.js';

/** Longest a log line waits before it is written: a developer watching the logs sees a request well within a second. */
export const LOG_FLUSH_DELAY_MS = 200;
/** Under load lines go out in batches of about this many characters: one write(2) per few KB instead of one per request. */
const BATCH_CHARS = 4096;

/**
 * The process's stdout, batched. A full batch is handed to an asynchronous sonic-boom at once;
 * the first line of a batch arms one timer that hands over the rest, so a quiet sandbox shows its
 * last request within `LOG_FLUSH_DELAY_MS` and an idle one has no timer at all. sonic-boom itself
 * writes whenever it is idle (`minLength: 0`) and gathers what arrives while a write is in
 * flight, so nothing handed to it waits for more traffic. (Its own `minLength` buffer cannot be
 * flushed on a timer safely: a flush while a write is in flight does nothing and strands the
 * lines that arrived meanwhile.) One instance per process: every logger writing to stdout
 * shares it, and one exit hook writes out what is left.
 */
class BatchedStdout implements DestinationStream {
  private batch = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly out = fileDestination({ dest: 1, sync: false, minLength: 0 });
  /** Whether sonic-boom has a write in flight; it emits 'drain' each time it goes idle. */
  private writing = false;
  private idleWaiters: (() => void)[] = [];

  constructor() {
    this.out.on('drain', () => {
      this.writing = false;
      for (const waiter of this.idleWaiters.splice(0)) waiter();
    });
    // At exit only synchronous writes happen: what sonic-boom holds first, then the batch. Both,
    // always: a flush just before the exit moves the batch into sonic-boom, so an empty batch does
    // not mean nothing is left. A closed stdout must not turn a clean exit into a crash, so a
    // failed write is dropped.
    process.once('exit', () => {
      try {
        this.out.flushSync();
        if (this.batch) writeSync(1, this.batch);
      } catch {
        // Nowhere left to report it.
      }
    });
  }

  write(line: string): void {
    this.batch += line;
    if (this.batch.length >= BATCH_CHARS) this.handOver();
    else this.timer ??= setTimeout(this.flushOnTimer, LOG_FLUSH_DELAY_MS).unref();
  }

  /**
   * Hands the batch to sonic-boom and calls `done` once everything is written (pino's
   * `logger.flush(done)` calls this): a shutdown that waits for it can exit without losing a
   * line to a write still in flight, which an exit cannot wait for.
   */
  flush(done?: (err?: Error) => void): void {
    this.handOver();
    if (!done) return;
    if (this.writing) this.idleWaiters.push(() => done());
    else done();
  }

  private handOver(): void {
    if (!this.batch) return;
    this.writing = true;
    this.out.write(this.batch);
    this.batch = '';
  }

  private readonly flushOnTimer = () => {
    this.timer = undefined;
    this.handOver();
  };
}

let stdout: BatchedStdout | undefined;

/**
 * Structured logs: JSON lines with ISO times, or in `pretty` format the same entries as lines a
 * person reads (log-format.ts), coloured when they go to a terminal that allows it (NO_COLOR
 * turns colours off). Request logs carry method, route path, status, duration, error code,
 * request id and merchant id only: never headers, query strings or bodies, so keys and card data
 * cannot leak. The redaction list is a second line of defence for anything logged by mistake.
 */
export function createLogger(level: string, destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const out = destination ?? (stdout ??= new BatchedStdout());
  const colours = destination === undefined && process.stdout.isTTY && process.env.NO_COLOR === undefined;
  return pino(
    {
      level,
      base: { service: 'switchyard-sandbox' },
      timestamp: stdTimeFunctions.isoTime,
      // Explicit paths only: wildcard redaction costs several percent of a request.
      redact: {
        paths: [
          'public_api_key',
          'private_secret_key',
          'api_key',
          'token',
          'payment_token',
          'req.headers["public-api-key"]',
          'req.headers["private-secret-key"]',
          'req.headers["x-api-key"]',
          'req.headers["x-secret"]',
          'req.headers.authorization',
          'card_data.number',
          'card_data.security_code',
          'card_data.csc',
        ],
        censor: '[redacted]',
      },
    },
    format === 'pretty' ? prettyDestination(out, colours) : out,
  );
}
