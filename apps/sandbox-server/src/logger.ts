import { destination as fileDestination, pino, type Logger } from 'pino';

/**
 * Structured JSON logs. Request logs carry method, route path, status, duration, request id and
 * merchant id only: never headers, query strings or bodies, so keys and card data cannot leak.
 * The redaction list is a second line of defence for anything logged by mistake.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: 'switchyard-sandbox' },
      // Explicit paths only: wildcard redaction costs several percent of a request.
      redact: {
        paths: ['public_api_key', 'private_secret_key', 'req.headers["public-api-key"]', 'req.headers["private-secret-key"]', 'card_data.number', 'card_data.security_code'],
        censor: '[redacted]',
      },
    },
    // Buffered writes to stdout: one write(2) per few KB of log lines instead of one per request.
    destination ?? fileDestination({ dest: 1, sync: false, minLength: 4096 }),
  );
}
