import { boundMessages, type ApiError, type ErrorCode } from '@switchyard/contract';

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
