/**
 * The client's errors. Every class sets `name` as a string literal (a minifier may rename the
 * classes, never their names), and `isSwitchyardError` recognises them through a
 * global symbol, so the check survives two copies of this package in one bundle.
 * None of them carries request headers: the API keys can never end up in an error report.
 */
const BRAND = Symbol.for('switchyard.client.error');

export interface ErrorDetails {
  /** HTTP status, when a response arrived. */
  status?: number;
  /** The API's error code (`PAYMENT_NOT_FOUND`, `INVALID_REQUEST`, ...). */
  code?: string;
  /** The API's messages; validation failures name the field. */
  messages?: string[];
  /** The `x-request-id` of the response, to quote when asking for help. */
  requestId?: string;
  /** Response headers. */
  headers?: Record<string, string>;
  /** The parsed response body, as received. */
  raw?: unknown;
  cause?: unknown;
}

export class SwitchyardError extends Error {
  readonly [BRAND] = true;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly messages: string[];
  readonly requestId: string | undefined;
  readonly headers: Record<string, string>;
  readonly raw: unknown;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SwitchyardError';
    this.status = details.status;
    this.code = details.code;
    this.messages = details.messages ?? [];
    this.requestId = details.requestId;
    this.headers = details.headers ?? {};
    this.raw = details.raw;
  }
}

/** The API answered with an error status. */
export class APIError extends SwitchyardError {
  declare readonly status: number;
  override name = 'APIError';
  // Narrows `details`: an API error always has the response's status.
  constructor(message: string, details: ErrorDetails & { status: number }) {
    super(message, details);
  }
}

export class InvalidRequestError extends APIError { override name = 'InvalidRequestError'; }
export class AuthenticationError extends APIError { override name = 'AuthenticationError'; }
export class PermissionError extends APIError { override name = 'PermissionError'; }
export class NotFoundError extends APIError { override name = 'NotFoundError'; }
export class ConflictError extends APIError { override name = 'ConflictError'; }
export class UnprocessableEntityError extends APIError { override name = 'UnprocessableEntityError'; }
export class RateLimitError extends APIError { override name = 'RateLimitError'; }
export class ServerError extends APIError { override name = 'ServerError'; }

/** No response: the connection failed, was reset, or the caller aborted. */
export class ConnectionError extends SwitchyardError { override name = 'ConnectionError'; }

/** An attempt took longer than the timeout (after every allowed retry). */
export class TimeoutError extends ConnectionError { override name = 'TimeoutError'; }

/** A response did not match the contract (only with `validateResponses: true`). */
export class ResponseValidationError extends SwitchyardError { override name = 'ResponseValidationError'; }

/** A webhook's signature did not verify, or its payload is not a valid event. */
export class WebhookVerificationError extends SwitchyardError { override name = 'WebhookVerificationError'; }

export function isSwitchyardError(value: unknown): value is SwitchyardError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

const BY_STATUS: Record<number, typeof APIError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The error for a non-2xx response. */
export function errorFromResponse(status: number, body: unknown, headers: Record<string, string>): APIError {
  const parsed = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; messages?: unknown };
  const code = typeof parsed.code === 'string' ? parsed.code : undefined;
  const messages = Array.isArray(parsed.messages) ? parsed.messages.map(String) : [];
  const Class = BY_STATUS[status] ?? (status >= 500 ? ServerError : APIError);
  const requestId = headers['x-request-id'];
  const summary = `${status}${code ? ` ${code}` : ''}${messages.length ? `: ${messages.join('; ')}` : ''}`;
  return new Class(summary, { status, code, messages, requestId, headers, raw: body });
}
