import { pino, type Logger } from 'pino';

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
      redact: {
        paths: [
          '*.headers["public-api-key"]',
          '*.headers["private-secret-key"]',
          'public_api_key',
          'private_secret_key',
          '*.public_api_key',
          '*.private_secret_key',
          '*.card_data.number',
          '*.card_data.security_code',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? process.stdout,
  );
}
