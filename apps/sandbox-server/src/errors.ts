import { boundMessages, MAX_ERROR_MESSAGES, MAX_MESSAGE_LENGTH, type ApiError, type ErrorCode } from '@switchyard/contract';

/**
 * The largest error answer: its messages bounded (boundMessages), each character at worst a
 * six-byte JSON escape, plus the code and `http_code`. docs/sandbox.md, "Bad input".
 */
export const MAX_ERROR_BODY_BYTES = (MAX_ERROR_MESSAGES + 1) * (MAX_MESSAGE_LENGTH * 6 + 3) + 256;

/**
 * A failure that becomes an API error response. Domain code throws these; the HTTP layer turns
 * them into `{code, messages}` with the status.
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | (string & {}),
    readonly messages: string[],
  ) {
    super(`${code}: ${messages.join('; ')}`);
    this.name = 'ApiProblem';
  }

  /**
   * The banking family carries the status in the body too (`http_code`). The messages are
   * bounded (boundMessages): no error answer grows with the input that caused it.
   */
  toBody(withHttpCode = false): ApiError {
    const messages = boundMessages(this.messages);
    return withHttpCode ? { code: this.code, messages, http_code: this.status } : { code: this.code, messages };
  }
}

export const badRequest = (code: ErrorCode, message: string) => new ApiProblem(400, code, [message]);
export const notFound = (code: ErrorCode, message: string) => new ApiProblem(404, code, [message]);

/**
 * The answer for keys that name no merchant (authentication), and for a merchant removed from the
 * store while a request of its was under way: to the caller both are keys that no longer work.
 */
export const invalidCredentials = () => new ApiProblem(401, 'INVALID_CREDENTIALS', ['invalid API credentials']);
